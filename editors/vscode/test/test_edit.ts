// The extension's edit client (src/edit.ts) against the real sb-lsp and the
// demo model, from Node: a JSON-RPC connection stands in for
// vscode-languageclient and a stub for VS Code's UI (progress notification,
// input box, messages); workspace/applyEdit is applied to a local copy of
// the document as VS Code would, all edits at once.
//
// Run by editors/vscode/test/run.sh after editors/test/fixtures.sh: $SB_T
// holds peek.c, ring.c and `sb edit`'s output for them (*.expected).
//   1. the whole document, by the runner as "Edit selection…" runs it with
//      no selection: equals sb edit's output;
//   2. lines 26..35 of ring.c through the "Edit with an instruction…" code
//      action the server offers (our client capability asks for it) and the
//      input box: equals ring.expected;
// and against a server with --test-hold-edits (it pauses after its first
// progress report until the edit is cancelled or its document changes):
//   3. the notification's Cancel mid-edit: cancelled, document unchanged;
//   4. the document changed mid-edit: refused, nothing applied;
// and with the preview on (EditPreview, its UI a stand-in for VS Code's
// Refactor Preview that applies the hunks the user checks, all
// against the text the edit was made from, as VS Code does):
//   preview: the hunks offered, one per diff(1) hunk, labelled, nothing
//     changed; discarding leaves the document as it was;
//   accept-hunk: only the first checked: peek.first (from diff(1));
//   reject-hunk: all but the first: peek.rest;
//   accept-all: all checked: sb edit's output;
//   preview-stale: the document at another version when the edit
//     arrives: refused, nothing shown.
// The Refactor Preview itself (its checkboxes, one undo step for the
// applied hunks, its refusal of a file changed meanwhile) is VS Code's and
// runs only in code-server (make test-vscode-e2e), not here.
// Prints one line per test and "N passed, N failed"; exit 1 on a failure.

import { execFileSync, spawn } from 'child_process';
import { readFileSync } from 'fs';
import {
  createMessageConnection, MessageConnection, ProgressType, StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';

import {
  ApplyEditParams, ApplyEditResult, EditArg, EditConnection, EditPreview, EditRunner, EditUi,
  lineRange, LspPosition, Outcome, PreviewHunk, PreviewUi, ProgressValue,
} from '../src/edit';

const T = need('SB_T');
const WAIT_MS = 120000; // a guard against a hung server, not a measurement

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (run editors/vscode/test/run.sh)`);
  return v;
}

function read(name: string): string {
  return readFileSync(`${T}/${name}`, 'utf8');
}

function check(cond: boolean, msg: string): void {
  if (!cond) throw new Error(msg);
}

/** An open document as the editor keeps it (JS strings count UTF-16 units, as LSP does). */
class Doc {
  version = 1;
  constructor(readonly uri: string, public text: string) {}

  offset(p: LspPosition): number {
    let off = 0;
    for (let line = 0; line < p.line; line++) {
      const nl = this.text.indexOf('\n', off);
      if (nl < 0) return this.text.length;
      off = nl + 1;
    }
    const eol = this.text.indexOf('\n', off);
    return Math.min(off + p.character, eol < 0 ? this.text.length : eol);
  }

  /** Applies TextEdits that all refer to the text before any of them. */
  apply(edits: { range: { start: LspPosition; end: LspPosition }; newText: string }[]): void {
    const spans = edits.map((e) => ({ a: this.offset(e.range.start), b: this.offset(e.range.end),
                                      t: e.newText }))
      .sort((x, y) => y.a - x.a);
    for (const s of spans) this.text = this.text.slice(0, s.a) + s.t + this.text.slice(s.b);
    this.version++;
  }
}

/** sb-lsp on pipes, initialized, with one document open. */
class Server {
  conn: MessageConnection;
  docs = new Map<string, Doc>();
  applies = 0;
  /** When set, workspace/applyEdit goes here (the preview tests). */
  onApply: ((p: ApplyEditParams) => Promise<ApplyEditResult>) | undefined;

  constructor(held: boolean) {
    const args = held ? ['--stdio', '--test-hold-edits'] : ['--stdio'];
    const child = spawn(need('SB_LSP'), args, { stdio: ['pipe', 'pipe', 'inherit'] });
    this.conn = createMessageConnection(new StreamMessageReader(child.stdout!),
                                        new StreamMessageWriter(child.stdin!));
    this.conn.onRequest('workspace/applyEdit', (p: any) => {
      if (this.onApply) return this.onApply(p as ApplyEditParams);
      for (const dc of p.edit.documentChanges ?? []) {
        const doc = this.docs.get(dc.textDocument.uri);
        if (!doc || dc.textDocument.version !== doc.version) {
          return { applied: false, failureReason: 'version mismatch' };
        }
        doc.apply(dc.edits);
        this.applies++;
      }
      return { applied: true };
    });
    this.conn.onNotification('window/showMessage', () => {});
    this.conn.onNotification('window/logMessage', () => {});
    this.conn.listen();
  }

  async initialize(): Promise<void> {
    await this.conn.sendRequest('initialize', {
      processId: process.pid, rootUri: null,
      capabilities: {
        workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } },
        window: { workDoneProgress: true },
        experimental: { sonicboom: { instructionPrompt: true } },
      },
      initializationOptions: { model: need('SB_TEST_MODEL'), threads: 2 },
    });
    await this.conn.sendNotification('initialized', {});
  }

  async open(name: string): Promise<Doc> {
    const doc = new Doc(`file://${T}/${name}`, read(name));
    this.docs.set(doc.uri, doc);
    await this.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: doc.uri, languageId: 'c', version: doc.version, text: doc.text },
    });
    return doc;
  }

  async change(doc: Doc, text: string): Promise<void> {
    doc.text = text;
    doc.version++;
    await this.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: doc.uri, version: doc.version }, contentChanges: [{ text }],
    });
  }

  edits(): EditConnection {
    return {
      sendRequest: (m, p) => this.conn.sendRequest(m, p),
      sendNotification: (m, p) => this.conn.sendNotification(m, p),
      onProgress: (token, handler) =>
        this.conn.onProgress(new ProgressType<ProgressValue>(), token, handler),
    };
  }

  async stop(): Promise<void> {
    await this.conn.sendRequest('shutdown');
    await this.conn.sendNotification('exit');
    this.conn.dispose();
  }
}

/** VS Code's UI, stubbed: records what the user would see. */
class StubUi implements EditUi {
  reports: string[] = [];
  messages: string[] = [];
  cancelButton: (() => void) | undefined;
  answer: string | undefined;
  onReport: ((message: string) => void) | undefined;

  withProgress<T>(_title: string, task: (report: (m: string) => void,
                                          onCancel: (c: () => void) => void) => Promise<T>) {
    return task((m) => { this.reports.push(m); this.onReport?.(m); },
                (c) => { this.cancelButton = c; });
  }
  askInstruction() { return Promise.resolve(this.answer); }
  info(m: string) { this.messages.push(m); }
  warn(m: string) { this.messages.push(m); }
}

function withGuard<T>(p: Promise<T>, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out: ${what}`)), WAIT_MS);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
  });
}

/** The first time the server reports progress (a held server then pauses). */
function firstReport(ui: StubUi): Promise<void> {
  return new Promise((resolve) => {
    ui.onReport = (m) => { if (m.includes('tokens')) { ui.onReport = undefined; resolve(); } };
  });
}

async function wholeDocument(s: Server): Promise<string> {
  const doc = await s.open('peek.c');
  const before = doc.text;
  const ui = new StubUi();
  ui.answer = need('INSTR_WHOLE');
  const runner = new EditRunner(s.edits(), ui);
  // "Edit selection…" with an empty selection: no range
  const range = lineRange({ line: 2, character: 4 }, { line: 2, character: 4 });
  check(range === undefined, 'an empty selection must mean the whole document');
  const o = await withGuard(runner.runWithInstruction({ uri: doc.uri, version: doc.version }),
                            'the edit') as Outcome;
  check(o.kind === 'done', `outcome ${JSON.stringify(o)}`);
  check(doc.text === read('peek.expected'), `document differs from sb edit:\n${doc.text}`);
  check(doc.text !== before, 'the edit changed nothing');
  check(ui.reports.some((r) => r.includes('tokens')), 'no progress was reported');
  return 'whole document equals sb edit, progress reported';
}

async function selectionByCodeAction(s: Server): Promise<string> {
  const doc = await s.open('ring.c');
  const lastLine = doc.text.split('\n')[34];
  const actions = await s.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri: doc.uri },
    range: { start: { line: 25, character: 0 }, end: { line: 34, character: lastLine.length } },
    context: { diagnostics: [] },
  }) as { title: string; command: { command: string; arguments: EditArg[] } }[];
  const prompt = actions.find((a) => a.command.command === 'sonicboom.editWithInstruction');
  check(prompt !== undefined, `no "Edit with an instruction" action in ${JSON.stringify(actions)}`);
  const ui = new StubUi();
  ui.answer = need('INSTR_MID');
  const runner = new EditRunner(s.edits(), ui);
  // what the extension's sonicboom.editWithInstruction command does
  const o = await withGuard(runner.runWithInstruction(prompt!.command.arguments[0]),
                            'the edit') as Outcome;
  check(o.kind === 'done', `outcome ${JSON.stringify(o)}`);
  check(doc.text === read('ring.expected'), `document differs from sb edit:\n${doc.text}`);
  check(s.applies === 2, `expected one applyEdit per edit, saw ${s.applies} in all`);
  return 'lines 26-35 by the free-text code action equal sb edit, one applyEdit';
}

async function cancelMidEdit(s: Server): Promise<string> {
  const doc = await s.open('peek.c');
  const before = doc.text;
  const ui = new StubUi();
  const runner = new EditRunner(s.edits(), ui);
  const reported = firstReport(ui);
  const done = runner.run({ uri: doc.uri, instruction: need('INSTR_WHOLE'), version: doc.version });
  await withGuard(reported, 'a progress report');
  check(runner.busy(), 'the edit is not running');
  ui.cancelButton!(); // the notification's Cancel
  const o = await withGuard(done, 'the cancel');
  check(o.kind === 'cancelled', `outcome ${JSON.stringify(o)}`);
  check(doc.text === before, 'the document changed after a cancel');
  check(ui.messages.some((m) => m.includes('cancelled')), 'no cancel message');
  return 'cancel mid-edit: document unchanged';
}

async function changedDuringGeneration(s: Server): Promise<string> {
  const doc = await s.open('ring.c');
  const ui = new StubUi();
  const runner = new EditRunner(s.edits(), ui);
  const reported = firstReport(ui);
  const lastLine = doc.text.split('\n')[34];
  const range = lineRange({ line: 25, character: 0 }, { line: 34, character: lastLine.length });
  const done = runner.run({ uri: doc.uri, instruction: need('INSTR_MID'), version: doc.version,
                            range });
  await withGuard(reported, 'a progress report');
  const typed = '/* typed meanwhile */\n' + doc.text;
  await s.change(doc, typed);
  const o = await withGuard(done, 'the refusal');
  check(o.kind === 'stale', `outcome ${JSON.stringify(o)}`);
  check(doc.text === typed, 'something was applied to a changed document');
  check(ui.messages.some((m) => m.includes('changed')), 'no "changed" message');
  return 'document changed during generation: refused, nothing applied';
}

/** The Refactor Preview, stubbed: `choose` picks the hunks the user checks
 * (undefined: Discard); they are applied together to the text the edit was
 * made from. */
class StubPreview implements PreviewUi {
  offered: PreviewHunk[] = [];
  versionSkew = 0;
  choose: (hunks: PreviewHunk[]) => PreviewHunk[] | undefined = () => undefined;
  constructor(private readonly s: Server) {}

  documentVersion(uri: string) {
    const d = this.s.docs.get(uri);
    return d ? d.version + this.versionSkew : undefined;
  }
  async preview(_title: string, hunks: PreviewHunk[]) {
    this.offered = hunks;
    const chosen = this.choose(hunks);
    if (!chosen) return false;
    const doc = this.s.docs.get(hunks[0].uri)!;
    doc.apply(chosen.map((h) => ({ range: h.range, newText: h.newText })));
    return true;
  }
  async applyNow(): Promise<ApplyEditResult> {
    throw new Error('the preview is on: nothing may be applied at once');
  }
}

/** diff(1)'s hunk count between two test files. */
function diffHunks(a: string, b: string): number {
  let out = '';
  try {
    out = execFileSync('diff', [`${T}/${a}`, `${T}/${b}`], { encoding: 'utf8' });
  } catch (e) {
    out = (e as { stdout: string }).stdout; // diff exits 1 when they differ
  }
  return out.split('\n').filter((l) => /^[0-9]/.test(l)).length;
}

/** INSTR_WHOLE on a fresh peek.c with the preview on; the user's choice. */
async function previewedEdit(s: Server, choose: StubPreview['choose'], skew = 0) {
  const doc = await s.open('peek.c');
  const before = doc.text;
  const ui = new StubPreview(s);
  ui.choose = choose;
  ui.versionSkew = skew;
  s.onApply = (p) => new EditPreview(ui, () => true).handle(p);
  const runner = new EditRunner(s.edits(), new StubUi());
  const o = await withGuard(runner.run({ uri: doc.uri, instruction: need('INSTR_WHOLE'),
                                         version: doc.version }), 'the edit');
  // the answer to applyEdit comes before the command's result: the preview
  // has been offered by now
  s.onApply = undefined;
  check(o.kind === 'done', `outcome ${JSON.stringify(o)}`);
  return { doc, before, ui };
}

const previewTests: Record<string, (s: Server) => Promise<string>> = {
  preview: async (s) => {
    const { doc, before, ui } = await previewedEdit(s, () => undefined);
    const want = diffHunks('peek.c', 'peek.expected');
    check(ui.offered.length === want, `${ui.offered.length} hunks offered, diff finds ${want}`);
    check(want > 1, 'the fixture needs two hunks or more');
    check(ui.offered.every((h, i) => h.label.startsWith(`Hunk ${i + 1} of ${want}, line`)),
          `labels ${JSON.stringify(ui.offered.map((h) => h.label))}`);
    check(doc.text === before, 'the document changed though the preview was discarded');
    return `preview: ${want} hunks offered for confirmation, labelled; discarded: document unchanged`;
  },
  'accept-hunk': async (s) => {
    const { doc } = await previewedEdit(s, (h) => [h[0]]);
    check(doc.text === read('peek.first'), `document differs from the first hunk alone:\n${doc.text}`);
    return 'accept-hunk: only the first hunk checked: the first hunk alone';
  },
  'reject-hunk': async (s) => {
    const { doc } = await previewedEdit(s, (h) => h.slice(1));
    check(doc.text === read('peek.rest'), `document differs from all but the first hunk:\n${doc.text}`);
    return 'reject-hunk: the first hunk unchecked: all but the first hunk';
  },
  'accept-all': async (s) => {
    const { doc, before } = await previewedEdit(s, (h) => h);
    check(doc.text === read('peek.expected'), `document differs from sb edit:\n${doc.text}`);
    check(doc.text !== before, 'the edit changed nothing');
    return 'accept-all: every hunk checked: equals sb edit';
  },
  'preview-stale': async (s) => {
    const { doc, before, ui } = await previewedEdit(s, (h) => h, 1);
    check(ui.offered.length === 0, 'a preview was offered for another version');
    check(doc.text === before, 'something was applied');
    return 'preview-stale: the document at another version: refused, nothing shown';
  },
};

async function main(): Promise<void> {
  let passed = 0;
  let failed = 0;
  const groups: [boolean, ((s: Server) => Promise<string>)[]][] = [
    [false, [wholeDocument, selectionByCodeAction]],
    [true, [cancelMidEdit, changedDuringGeneration]],
  ];
  for (const [held, tests] of groups) {
    const s = new Server(held);
    await s.initialize();
    for (const t of tests) {
      try {
        console.log(`ok - vscode client: ${await t(s)}`);
        passed++;
      } catch (e) {
        console.log(`FAIL - vscode client ${t.name}: ${(e as Error).message}`);
        failed++;
      }
    }
    await s.stop();
  }
  const s = new Server(false);
  await s.initialize();
  for (const [name, t] of Object.entries(previewTests)) {
    try {
      console.log(`ok - vscode ${await t(s)}`);
      passed++;
    } catch (e) {
      console.log(`FAIL - vscode ${name}: ${(e as Error).message}`);
      failed++;
    }
  }
  await s.stop();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((e) => {
  console.log(`FAIL - ${(e as Error).stack ?? e}`);
  process.exit(1);
});
