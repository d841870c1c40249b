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
// Cancel button stops the model. With sonicboom.preview on (the default)
// the result opens in the Refactor Preview, a checkbox per hunk
// (EditPreview in edit.ts); Ctrl+Alt+E (Cmd+Alt+E) runs "Edit selection…".

import * as vscode from 'vscode';
import {
  ApplyWorkspaceEditRequest, ClientCapabilities, LanguageClient, LanguageClientOptions,
  RevealOutputChannelOn, ServerOptions, StaticFeature, WorkDoneProgress,
} from 'vscode-languageclient/node';

import {
  ApplyEditParams, EditArg, EditConnection, EditPreview, EditRunner, EditUi, lineRange,
  PreviewHunk, PreviewUi,
} from './edit';

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

/** The Refactor Preview: each hunk a change that needs confirmation. */
function previewUi(c: LanguageClient): PreviewUi {
  return {
    documentVersion: (uri) =>
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)?.version,
    preview: async (title: string, hunks: PreviewHunk[]) => {
      const edit = new vscode.WorkspaceEdit();
      for (const h of hunks) {
        const r = c.protocol2CodeConverter.asRange(h.range);
        edit.replace(vscode.Uri.parse(h.uri), r, h.newText,
                     { label: h.label, description: title, needsConfirmation: true });
      }
      return vscode.workspace.applyEdit(edit, { isRefactoring: true });
    },
    // what the language client does with the preview off
    applyNow: async (params: ApplyEditParams) => {
      const edit = await c.protocol2CodeConverter.asWorkspaceEdit(
        params.edit as Parameters<typeof c.protocol2CodeConverter.asWorkspaceEdit>[0]);
      for (const d of params.edit.documentChanges ?? []) {
        const open = vscode.workspace.textDocuments.find(
          (t) => t.uri.toString() === d.textDocument.uri);
        if (open && typeof d.textDocument.version === 'number' &&
            open.version !== d.textDocument.version) {
          return { applied: false };
        }
      }
      return { applied: edit ? await vscode.workspace.applyEdit(edit) : false };
    },
  };
}

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
  const preview = new EditPreview(
    previewUi(client),
    () => vscode.workspace.getConfiguration('sonicboom').get<boolean>('preview', true));
  // replaces the client's own handler (which applies at once)
  client.onRequest(ApplyWorkspaceEditRequest.type,
                   (params) => preview.handle(params as ApplyEditParams));
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
