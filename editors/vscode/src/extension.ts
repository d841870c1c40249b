// extension.ts — the SonicBoom extension: starts sb-lsp through
// vscode-languageclient and runs edits with src/edit.ts.
//
// Commands: "SonicBoom: Edit selection…" (the selected lines, or the whole
// file with no selection; asks for the instruction), "SonicBoom: Cancel the
// running edit", and the code actions sb-lsp offers under Refactor…: the
// presets (sonicboom.edit) and "Edit with an instruction…"
// (sonicboom.editWithInstruction, which this extension completes: the
// server offers it because we announce experimental.sonicboom
// .instructionPrompt). Every edit shows a progress notification whose
// Cancel button stops the model.

import * as vscode from 'vscode';
import {
  ClientCapabilities, LanguageClient, LanguageClientOptions, RevealOutputChannelOn,
  ServerOptions, StaticFeature, WorkDoneProgress,
} from 'vscode-languageclient/node';

import { EditArg, EditConnection, EditRunner, EditUi, lineRange } from './edit';

let client: LanguageClient | undefined;
let runner: EditRunner | undefined;

/** Tells sb-lsp that this client runs sonicboom.editWithInstruction. */
class InstructionPromptFeature implements StaticFeature {
  fillClientCapabilities(caps: ClientCapabilities): void {
    caps.experimental = { ...(caps.experimental as object | undefined),
                          sonicboom: { instructionPrompt: true } };
  }
  initialize(): void {}
  getState(): { kind: 'static' } {
    return { kind: 'static' };
  }
  clear(): void {}
}

function settings() {
  const c = vscode.workspace.getConfiguration('sonicboom');
  const options: Record<string, unknown> = {
    device: c.get<string>('device', 'cpu'),
    threads: c.get<number>('threads', 0),
  };
  const model = c.get<string>('model', '');
  if (model) options.model = model;
  const log = c.get<string>('log', '');
  if (log) options.log = log;
  return {
    serverPath: c.get<string>('serverPath', 'sb-lsp') || 'sb-lsp',
    languages: c.get<string[]>('languages', []),
    initializationOptions: options,
  };
}

const ui: EditUi = {
  withProgress: (title, task) =>
    Promise.resolve(vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) => task((message) => progress.report({ message }),
                                (cancel) => { token.onCancellationRequested(cancel); }))),
  askInstruction: () => Promise.resolve(vscode.window.showInputBox({
    prompt: 'SonicBoom: what should change?',
    placeHolder: 'rename parse to parse_line',
  })),
  info: (m) => { void vscode.window.setStatusBarMessage(m, 5000); },
  warn: (m) => { void vscode.window.showWarningMessage(m); },
};

function connectionOf(c: LanguageClient): EditConnection {
  return {
    sendRequest: (method, params) => c.sendRequest(method, params),
    sendNotification: (method, params) => c.sendNotification(method, params),
    onProgress: (token, handler) => c.onProgress(WorkDoneProgress.type, token, handler),
  };
}

/** "SonicBoom: Edit selection…" */
async function editSelection(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !runner) {
    void vscode.window.showWarningMessage('SonicBoom: open a file the server serves first');
    return;
  }
  const doc = editor.document;
  const sel = editor.selection;
  const arg: EditArg = { uri: doc.uri.toString(), version: doc.version };
  const range = lineRange(sel.start, sel.end);
  if (range) arg.range = range;
  await runner.runWithInstruction(arg);
}

function startClient(context: vscode.ExtensionContext): void {
  const s = settings();
  const serverOptions: ServerOptions = { command: s.serverPath, args: ['--stdio'] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: s.languages.map((language) => ({ scheme: 'file', language })),
    initializationOptions: s.initializationOptions,
    // our own messages say what happened to an edit; the client's would
    // add "request failed" for every cancel
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    middleware: {
      // the preset code actions: through the runner (progress, cancel)
      executeCommand: async (command, args, next) => {
        if (command === 'sonicboom.edit' && runner && args.length === 1) {
          return runner.run(args[0] as EditArg);
        }
        return next(command, args);
      },
    },
  };
  client = new LanguageClient('sonicboom', 'SonicBoom', serverOptions, clientOptions);
  client.registerFeature(new InstructionPromptFeature());
  runner = new EditRunner(connectionOf(client), ui);
  client.start().catch((e: unknown) => {
    void vscode.window.showErrorMessage(
      `SonicBoom: cannot start ${s.serverPath} (${String(e)}); set sonicboom.serverPath`);
  });
  context.subscriptions.push({ dispose: () => { void client?.stop(); } });
}

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('sonicboom.editSelection', editSelection),
    vscode.commands.registerCommand('sonicboom.cancel', () => runner?.cancel()),
    vscode.commands.registerCommand('sonicboom.editWithInstruction',
                                    (arg: EditArg) => runner?.runWithInstruction(arg)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('sonicboom') || !client) return;
      void client.stop().then(() => startClient(context));
    }),
  );
  startClient(context);
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
