// edit.ts — one SonicBoom edit from the client's side, without the vscode
// API: extension.ts gives it the language client and VS Code's UI; the test
// (test/test_edit.ts) gives it a JSON-RPC connection to sb-lsp and a stub UI.
//
// An edit is workspace/executeCommand "sonicboom.edit" with our own
// workDoneToken, so that its $/progress reaches us; the server sends the
// result as one workspace/applyEdit (the language client applies it: one
// undo step) before it answers. Cancel = window/workDoneProgress/cancel for
// that token: the server stops, ends the progress with "cancelled" and
// answers -32800; nothing is applied. If the document changed while the
// model wrote, the server answers -32801 and applies nothing.

export interface LspPosition { line: number; character: number }
export interface LspRange { start: LspPosition; end: LspPosition }

/** sonicboom.edit's one argument. */
export interface EditArg {
  uri: string;
  instruction?: string;
  range?: LspRange;
  version?: number;
}

/** A $/progress value (WorkDoneProgressBegin/Report/End). */
export interface ProgressValue { kind: string; title?: string; message?: string }

/** What an edit needs of the connection to sb-lsp. */
export interface EditConnection {
  sendRequest(method: string, params: unknown): Promise<unknown>;
  sendNotification(method: string, params: unknown): Promise<void> | void;
  onProgress(token: string, handler: (value: ProgressValue) => void): { dispose(): void };
}

/** What an edit needs of the editor's UI. */
export interface EditUi {
  /** Runs task under a cancellable progress display. */
  withProgress<T>(title: string, task: (report: (message: string) => void,
                                        onCancel: (cancel: () => void) => void) => Promise<T>): Promise<T>;
  /** Asks for the instruction; undefined when the user gave none. */
  askInstruction(): Promise<string | undefined>;
  info(message: string): void;
  warn(message: string): void;
}

export type Outcome =
  | { kind: 'done'; hunks: number; tokens: number }
  | { kind: 'cancelled' }
  | { kind: 'stale' }
  | { kind: 'failed'; message: string }
  | { kind: 'refused'; message: string };

const REQUEST_CANCELLED = -32800;
const CONTENT_MODIFIED = -32801;

/**
 * The whole lines a selection touches, as sb-lsp takes them: from the start
 * of the first line to the start of the line after the last; a selection
 * ending at column 0 of a later line stops before that line. An empty
 * selection gives undefined: the whole document.
 */
export function lineRange(start: LspPosition, end: LspPosition): LspRange | undefined {
  if (start.line === end.line && start.character === end.character) return undefined;
  const last = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
  return { start: { line: start.line, character: 0 }, end: { line: last, character: 0 } };
}

function errorCode(e: unknown): number | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

function errorMessage(e: unknown): string {
  const m = (e as { message?: unknown } | null)?.message;
  return typeof m === 'string' ? m : String(e);
}

/** Runs edits one at a time over one connection. */
export class EditRunner {
  private running: { token: string; cancel: () => void } | undefined;
  private counter = 0;

  constructor(private readonly conn: EditConnection, private readonly ui: EditUi,
              private readonly tokenPrefix = `sonicboom/vscode/${process.pid}`) {}

  busy(): boolean {
    return this.running !== undefined;
  }

  /** Stops the running edit, if any; nothing is applied. */
  cancel(): void {
    this.running?.cancel();
  }

  /** Runs sonicboom.edit with arg (which must hold the instruction). */
  async run(arg: EditArg): Promise<Outcome> {
    if (this.running) {
      const message = 'an edit is already running: cancel it or wait for it';
      this.ui.warn(`SonicBoom: ${message}`);
      return { kind: 'refused', message };
    }
    const token = `${this.tokenPrefix}/${++this.counter}`;
    const title = `SonicBoom: ${arg.instruction ?? ''}`.slice(0, 120);
    return this.ui.withProgress(title, (report, onCancel) =>
      new Promise<Outcome>((resolve) => {
        let cancelling = false;
        let settled = false;
        const settle = (o: Outcome) => {
          if (settled) return;
          settled = true;
          this.running = undefined;
          sub.dispose();
          this.tell(o);
          resolve(o);
        };
        const cancel = () => {
          if (cancelling || settled) return;
          cancelling = true;
          report('cancelling');
          void this.conn.sendNotification('window/workDoneProgress/cancel', { token });
        };
        this.running = { token, cancel };
        onCancel(cancel);
        const sub = this.conn.onProgress(token, (v) => {
          // a client may drop the -32800 answer: the end of the progress of
          // a cancel we asked for finishes the edit
          if (v.kind === 'end' && cancelling && v.message === 'cancelled') {
            settle({ kind: 'cancelled' });
          } else if (v.message) {
            report(v.message);
          }
        });
        this.conn.sendRequest('workspace/executeCommand', {
          command: 'sonicboom.edit', arguments: [arg], workDoneToken: token,
        }).then((r) => {
          const result = (r ?? {}) as { hunks?: number; tokens?: number };
          settle({ kind: 'done', hunks: result.hunks ?? 0, tokens: result.tokens ?? 0 });
        }, (e: unknown) => {
          const code = errorCode(e);
          if (code === REQUEST_CANCELLED || (cancelling && code === undefined)) {
            settle({ kind: 'cancelled' });
          } else if (code === CONTENT_MODIFIED) {
            settle({ kind: 'stale' });
          } else {
            settle({ kind: 'failed', message: errorMessage(e) });
          }
        });
      }));
  }

  /** The free-text code action: asks for the instruction, then edits. */
  async runWithInstruction(arg: EditArg): Promise<Outcome | undefined> {
    const instruction = await this.ui.askInstruction();
    if (!instruction || !instruction.trim()) return undefined;
    return this.run({ ...arg, instruction });
  }

  private tell(o: Outcome): void {
    switch (o.kind) {
      case 'done':
        this.ui.info(`SonicBoom: done: ${o.hunks} change(s), ${o.tokens} tokens`);
        break;
      case 'cancelled':
        this.ui.info('SonicBoom: cancelled; nothing was applied');
        break;
      case 'stale':
        this.ui.warn('SonicBoom: the document changed during the edit; nothing was applied');
        break;
      case 'failed':
      case 'refused':
        this.ui.warn(`SonicBoom: ${o.message}`);
        break;
    }
  }
}
