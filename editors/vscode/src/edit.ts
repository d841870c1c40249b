// edit.ts — one SonicBoom edit from the client's side, and its preview,
// without the vscode API: extension.ts gives it the language client and VS
// Code's UI; the test
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

// ---- the preview --------------------------------------------------------
//
// With the preview on (sonicboom.preview, the default), the server's
// workspace/applyEdit is not applied at once: each of its TextEdits (the
// server makes one per block of changed lines) becomes a hunk that needs
// confirmation, and VS Code's refactor preview shows them, each with its
// checkbox: the user applies the checked hunks (one undo step) or discards
// them all. VS Code refuses to apply a preview whose file changed in the
// meantime; before that, an edit made from another version of the document
// than the one open is refused here, as the language client would.

/** A TextEdit of the server's answer, as the preview shows it. */
export interface PreviewHunk {
  uri: string;
  range: LspRange;
  newText: string;
  /** "Hunk 1 of 3, lines 12–14" (1-based lines, as the editor shows them) */
  label: string;
}

/** workspace/applyEdit's params, as far as the preview reads them. */
export interface ApplyEditParams {
  label?: string;
  edit: {
    documentChanges?: { textDocument: { uri: string; version?: number | null };
                        edits: { range: LspRange; newText: string }[] }[];
    changes?: Record<string, { range: LspRange; newText: string }[]>;
  };
}

export interface ApplyEditResult { applied: boolean; failureReason?: string }

/** What the preview needs of the editor. */
export interface PreviewUi {
  /** The version of the open document at uri; undefined when not open. */
  documentVersion(uri: string): number | undefined;
  /** Shows the hunks for confirmation until the user applies the checked
   * ones (true) or discards them (false). */
  preview(title: string, hunks: PreviewHunk[]): Promise<boolean>;
  /** Applies the edit at once, as the language client would. */
  applyNow(params: ApplyEditParams): Promise<ApplyEditResult>;
}

/** The hunks of a WorkspaceEdit, in document order, or a reason to refuse it. */
export function previewHunks(params: ApplyEditParams, ui: Pick<PreviewUi, 'documentVersion'>):
    { hunks: PreviewHunk[] } | { refused: string } {
  const docs = [...(params.edit.documentChanges ?? [])];
  for (const [uri, edits] of Object.entries(params.edit.changes ?? {})) {
    docs.push({ textDocument: { uri }, edits });
  }
  const hunks: PreviewHunk[] = [];
  for (const d of docs) {
    const open = ui.documentVersion(d.textDocument.uri);
    const want = d.textDocument.version;
    if (open === undefined) return { refused: `${d.textDocument.uri} is not open` };
    if (typeof want === 'number' && want !== open) {
      return { refused: 'the document changed; nothing applied' };
    }
    const edits = [...d.edits].sort((a, b) => a.range.start.line - b.range.start.line ||
                                           a.range.start.character - b.range.start.character);
    edits.forEach((e, i) => {
      const first = e.range.start.line + 1;
      // a range ending at column 0 ends with the line before
      const last = Math.max(first, e.range.end.character === 0 ? e.range.end.line
                                                               : e.range.end.line + 1);
      const lines = first === last ? `line ${first}` : `lines ${first}\u2013${last}`;
      hunks.push({ uri: d.textDocument.uri, range: e.range, newText: e.newText,
                   label: `Hunk ${i + 1} of ${edits.length}, ${lines}` });
    });
  }
  return { hunks };
}

/** Answers workspace/applyEdit: through the preview, or at once. */
export class EditPreview {
  constructor(private readonly ui: PreviewUi, private readonly enabled: () => boolean) {}

  async handle(params: ApplyEditParams): Promise<ApplyEditResult> {
    if (!this.enabled()) return this.ui.applyNow(params);
    const r = previewHunks(params, this.ui);
    if ('refused' in r) return { applied: false, failureReason: r.refused };
    if (r.hunks.length === 0) return { applied: true };
    // "applied": the client has taken the edit into its preview. A
    // discarded preview is the user's answer, not a failure for the server
    // to report.
    await this.ui.preview(params.label ?? 'SonicBoom', r.hunks);
    return { applied: true };
  }
}
