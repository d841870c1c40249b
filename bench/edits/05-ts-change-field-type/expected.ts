// Task board model: the part of the planner that knows nothing about the UI.
// Tasks arrive from the API as JSON, are grouped into columns, and are
// sorted and filtered here before the view renders them.

export type Priority = "low" | "normal" | "high" | "urgent";

export type Status = "todo" | "doing" | "review" | "done";

export interface Task {
  id: string;
  title: string;
  assignee: string | null;
  priority: Priority;
  status: Status;
  estimateHours: number;
  tags: string[];
}

export interface TaskJson {
  id: string;
  title: string;
  assignee?: string | null;
  priority?: string;
  status?: string;
  estimate_hours?: number;
  tags?: string[];
}

export interface Column {
  status: Status;
  title: string;
  tasks: Task[];
}

const PRIORITY_RANK: Record<Priority, number> = {
  urgent: 0,
  high: 1,
  normal: 2,
  low: 3,
};

const COLUMN_TITLES: Record<Status, string> = {
  todo: "To do",
  doing: "In progress",
  review: "In review",
  done: "Done",
};

const STATUSES: Status[] = ["todo", "doing", "review", "done"];

function isPriority(value: unknown): value is Priority {
  return typeof value === "string" && value in PRIORITY_RANK;
}

function isStatus(value: unknown): value is Status {
  return typeof value === "string" && (STATUSES as string[]).includes(value);
}

export class TaskFormatError extends Error {
  constructor(
    readonly taskId: string | undefined,
    message: string,
  ) {
    super(taskId === undefined ? message : `task ${taskId}: ${message}`);
    this.name = "TaskFormatError";
  }
}

// The API is lenient about optional fields; we are not lenient about the
// ones we cannot guess, like the id and the title.
export function taskFromJson(json: TaskJson): Task {
  if (typeof json.id !== "string" || json.id.trim() === "") {
    throw new TaskFormatError(undefined, `bad id ${JSON.stringify(json.id)}`);
  }
  if (typeof json.title !== "string" || json.title.trim() === "") {
    throw new TaskFormatError(json.id, "missing title");
  }
  const priority = json.priority ?? "normal";
  if (!isPriority(priority)) {
    throw new TaskFormatError(json.id, `unknown priority ${priority}`);
  }
  const status = json.status ?? "todo";
  if (!isStatus(status)) {
    throw new TaskFormatError(json.id, `unknown status ${status}`);
  }
  const estimate = json.estimate_hours ?? 0;
  if (!(estimate >= 0)) {
    throw new TaskFormatError(json.id, `negative estimate ${estimate}`);
  }
  return {
    id: json.id,
    title: json.title.trim(),
    assignee: json.assignee ?? null,
    priority,
    status,
    estimateHours: estimate,
    tags: [...new Set(json.tags ?? [])].sort(),
  };
}

export function taskToJson(task: Task): TaskJson {
  return {
    id: task.id,
    title: task.title,
    assignee: task.assignee,
    priority: task.priority,
    status: task.status,
    estimate_hours: task.estimateHours,
    tags: task.tags,
  };
}

// Most urgent first; among equals, ordered by id so the order is stable
// across reloads.
export function compareTasks(a: Task, b: Task): number {
  const byPriority = PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority];
  if (byPriority !== 0) {
    return byPriority;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function buildColumns(tasks: Task[]): Column[] {
  const columns = STATUSES.map((status) => ({
    status,
    title: COLUMN_TITLES[status],
    tasks: [] as Task[],
  }));
  for (const task of tasks) {
    columns[STATUSES.indexOf(task.status)].tasks.push(task);
  }
  for (const column of columns) {
    column.tasks.sort(compareTasks);
  }
  return columns;
}

export interface TaskFilter {
  assignee?: string;
  tag?: string;
  minPriority?: Priority;
  text?: string;
}

export function matchesFilter(task: Task, filter: TaskFilter): boolean {
  if (filter.assignee !== undefined && task.assignee !== filter.assignee) {
    return false;
  }
  if (filter.tag !== undefined && !task.tags.includes(filter.tag)) {
    return false;
  }
  if (
    filter.minPriority !== undefined &&
    PRIORITY_RANK[task.priority] > PRIORITY_RANK[filter.minPriority]
  ) {
    return false;
  }
  if (filter.text !== undefined) {
    const needle = filter.text.toLowerCase();
    return task.title.toLowerCase().includes(needle);
  }
  return true;
}

export function totalEstimate(tasks: Task[]): number {
  return tasks
    .filter((task) => task.status !== "done")
    .reduce((sum, task) => sum + task.estimateHours, 0);
}

export function workload(tasks: Task[]): Map<string, number> {
  const hours = new Map<string, number>();
  for (const task of tasks) {
    if (task.status === "done" || task.assignee === null) {
      continue;
    }
    hours.set(task.assignee, (hours.get(task.assignee) ?? 0) + task.estimateHours);
  }
  return hours;
}
