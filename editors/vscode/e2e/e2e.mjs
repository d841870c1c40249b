// The extension inside a real VS Code (code-server in headless Chromium),
// against the real sb-lsp with the demo model. Run by e2e/run.sh, which
// installs code-server and playwright-core (pinned in e2e/package.json),
// packages the .vsix and prepares $SB_T (editors/test/fixtures.sh).
//
// As a user would, by keyboard and mouse:
//   1. peek.c, no selection, "SonicBoom: Edit selection…", the instruction
//      in the input box: the file equals sb edit's output;
//   2. ring.c, lines 26-35 selected, the same command: equals
//      ring.expected; one Undo restores the file;
// then with the server held after its first progress report
// (--test-hold-edits, through a wrapper set as sonicboom.serverPath):
//   3. the progress notification's Cancel: the file is unchanged;
//   4. typing in the file mid-edit: refused, only the typing remains.
// With sonicboom.preview on, alone in its own code-server:
//   preview, accept-hunk: peek3.c, "Edit selection…": the Refactor Preview
//      lists one entry per diff(1) hunk, each labelled "Hunk i of n" and
//      unchecked, and nothing has changed; the first checked and Apply:
//      the file is peek.first; one Undo restores it.
// Tests 1-4 run with the preview off (they check the edit applied at once).
// `node e2e.mjs preview` runs the preview's test alone (well under a
// minute: make test-vscode-preview), `node e2e.mjs apply` tests 1-4.
// Prints one line per test and "N passed, N failed"; exit 1 on a failure.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';

const env = (k) => { const v = process.env[k]; if (!v) throw new Error(`${k} not set`); return v; };
const T = env('SB_T'), CODE_SERVER = env('CODE_SERVER'), VSIX = env('VSIX');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SHOTS = process.env.SB_E2E_SHOTS; // folder for screenshots on failure
const ONLY = process.argv[2] || 'all';
// guards against a hang, not measurements: one wait, and the whole run
const WAIT_MS = Number(process.env.SB_E2E_WAIT_MS || (ONLY === 'preview' ? 30000 : 120000));
const LIMIT_S = Number(process.env.SB_E2E_LIMIT_S || (ONLY === 'preview' ? 90 : 900));
const children = new Set(); // code-servers to stop if the run is cut short

const dir = `${T}/vscode-e2e`;
const work = `${dir}/work`, user = `${dir}/user`, exts = `${dir}/ext`;
for (const d of [work, `${user}/User`, exts]) mkdirSync(d, { recursive: true });
for (const f of ['peek.c', 'ring.c']) copyFileSync(`${T}/${f}`, `${work}/${f}`);
copyFileSync(`${T}/peek.c`, `${work}/peek2.c`);
copyFileSync(`${T}/peek.c`, `${work}/peek3.c`);
copyFileSync(`${T}/ring.c`, `${work}/ring2.c`);
const held = `${dir}/sb-lsp-held`;
writeFileSync(held, `#!/bin/sh\nexec '${env('SB_LSP')}' "$@" --test-hold-edits\n`);
chmodSync(held, 0o755);

function settings(serverPath, preview) {
  writeFileSync(`${user}/User/settings.json`, JSON.stringify({
    'sonicboom.serverPath': serverPath,
    'sonicboom.preview': preview,
    'sonicboom.model': env('SB_TEST_MODEL'),
    'sonicboom.threads': 2,
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'files.autoSave': 'off',
    'editor.formatOnSave': false,
    'files.insertFinalNewline': false,
    'files.trimTrailingWhitespace': false,
  }, null, 1));
}

async function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

const read = (p) => readFileSync(p, 'utf8');
/** How many hunks diff(1) finds between two files. */
const diffHunkCount = (a, b) =>
  spawnSync('diff', [a, b], { encoding: 'utf8' }).stdout.split('\n')
    .filter((l) => /^[0-9]/.test(l)).length;
const check = (c, m) => { if (!c) throw new Error(m); };

/** One code-server with sonicboom.serverPath = serverPath, its workbench in
 * Chromium, and tests run in it; returns [passed, failed]. */
async function session(serverPath, tests, preview = false) {
  settings(serverPath, preview);
  const port = await freePort();
  const server = spawn(CODE_SERVER, [...common(), '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', work],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(server);
  let serverLog = '';
  server.stdout.on('data', (d) => { serverLog += d; });
  server.stderr.on('data', (d) => { serverLog += d; });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
                                          args: ['--no-sandbox'] });
  let passed = 0, failed = 0;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(WAIT_MS);
    for (let i = 0; ; i++) { // until code-server listens
      try { await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(work)}`); break; }
      catch (e) { if (i > 300) throw e; await page.waitForTimeout(100); }
    }
    await page.waitForSelector('.monaco-workbench');
    const ui = new Ui(page);
    for (const [name, run] of tests) {
      try {
        console.log(`ok - vscode (code-server): ${name}: ${await run(ui)}`);
        passed++;
      } catch (e) {
        failed++;
        console.log(`FAIL - vscode (code-server): ${name}: ${e.message}`);
        if (SHOTS) {
          const base = `${SHOTS}/${name.replace(/\W+/g, '_')}`;
          await page.screenshot({ path: `${base}.png` });
          writeFileSync(`${base}.html`, await page.content());
        }
      }
    }
  } finally {
    await browser.close();
    server.kill();
    children.delete(server);
    if (failed && process.env.SB_E2E_VERBOSE) console.log(serverLog);
  }
  return [passed, failed];
}

const common = () => ['--user-data-dir', user, '--extensions-dir', exts,
                      '--config', `${dir}/config.yaml`];

async function main() {
  const only = ONLY;
  check(['all', 'preview', 'apply'].includes(only), `unknown test group '${only}'`);
  setTimeout(() => {
    console.log(`FAIL - vscode (code-server): no result within ${LIMIT_S} s`);
    for (const c of children) c.kill();
    process.exit(1);
  }, LIMIT_S * 1000).unref();
  writeFileSync(`${dir}/config.yaml`, 'auth: none\ncert: false\n');
  const inst = spawnSync(CODE_SERVER, [...common(), '--install-extension', VSIX],
                         { encoding: 'utf8' });
  check(inst.status === 0, `install-extension failed: ${inst.stdout}${inst.stderr}`);
  let passed = 0, failed = 0;
  const run = async (...args) => {
    const [p, f] = await session(...args);
    passed += p;
    failed += f;
  };
  if (only !== 'apply') {
    await run(env('SB_LSP'), [['preview, accept-hunk', (ui) => ui.previewAcceptHunk()]], true);
  }
  if (only !== 'preview') {
    await run(env('SB_LSP'), [
      ['whole file', (ui) => ui.wholeFile()],
      ['selection in the middle', (ui) => ui.selection()],
    ]);
    await run(held, [
      ['cancel mid-edit', (ui) => ui.cancel()],
      ['file changed during generation', (ui) => ui.changed()],
    ]);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

class Ui {
  constructor(page) { this.page = page; }

  async open(file) {
    const p = this.page;
    await p.keyboard.press(`${mod}+P`);
    await p.waitForSelector('.quick-input-widget .quick-input-box input');
    await p.keyboard.type(file);
    await p.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${file}"]`);
    await p.keyboard.press('Enter');
    await p.waitForSelector(`.tab.active[aria-label*="${file}"]`);
    await p.click('.monaco-editor .view-lines');
  }

  async command(title) {
    const p = this.page;
    await p.keyboard.press('F1');
    await p.waitForSelector('.quick-input-widget .quick-input-box input');
    await p.keyboard.type(title);
    await p.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${title}"]`);
    await p.keyboard.press('Enter');
  }

  /** "SonicBoom: Edit selection…", then the instruction in the input box. */
  async edit(instruction) {
    const p = this.page;
    await this.command('SonicBoom: Edit selection');
    await p.waitForSelector('.quick-input-widget .quick-input-box input[placeholder*="rename"]');
    await p.keyboard.type(instruction);
    await p.keyboard.press('Enter');
  }

  /** Waits until the edit is in the file (its tab turns dirty: VS Code
   * applies a workspace edit at once) and the extension says it is done. */
  async applied() {
    await this.page.waitForSelector('.tab.active.dirty');
    await this.statusText('SonicBoom: done');
  }

  async statusText(part) {
    await this.page.waitForSelector(`.statusbar >> text=${part}`);
  }

  /** Saves the active (dirty) file; resolves once it is written. */
  async save() {
    await this.page.waitForSelector('.tab.active.dirty');
    await this.page.keyboard.press(`${mod}+S`);
    await this.page.waitForSelector('.tab.active:not(.dirty)');
  }

  async gotoLine(n) {
    const p = this.page;
    await p.keyboard.press(`${mod}+G`);
    await p.waitForSelector('.quick-input-widget .quick-input-box input');
    await p.keyboard.type(String(n));
    await p.keyboard.press('Enter');
    await p.keyboard.press('Home');
    await p.keyboard.press('Home');
  }

  async selectLines(first, last) {
    await this.gotoLine(first);
    for (let i = first; i < last; i++) await this.page.keyboard.press('Shift+ArrowDown');
    await this.page.keyboard.press('Shift+End');
  }

  async wholeFile() {
    await this.open('peek.c');
    await this.edit(env('INSTR_WHOLE'));
    await this.page.waitForSelector('.notifications-toasts >> text=tokens');
    await this.applied();
    await this.save();
    check(read(`${work}/peek.c`) === read(`${T}/peek.expected`),
          `peek.c differs from sb edit:\n${read(`${work}/peek.c`)}`);
    return 'equals sb edit, progress shown';
  }

  async selection() {
    await this.open('ring.c');
    await this.selectLines(26, 35);
    await this.edit(env('INSTR_MID'));
    await this.applied();
    await this.save();
    check(read(`${work}/ring.c`) === read(`${T}/ring.expected`),
          `ring.c differs from sb edit of lines 26-35:\n${read(`${work}/ring.c`)}`);
    await this.page.keyboard.press(`${mod}+Z`);
    await this.save();
    check(read(`${work}/ring.c`) === read(`${T}/ring.c`), 'one Undo did not restore ring.c');
    return 'equals sb edit of lines 26-35; one Undo restores the file';
  }

  async cancel() {
    const p = this.page;
    await this.open('peek2.c');
    await this.edit(env('INSTR_WHOLE'));
    const toast = p.locator('.notification-toast', { hasText: 'tokens' });
    await toast.waitFor();
    await toast.hover();
    await toast.getByRole('button', { name: 'Cancel' }).click();
    await this.statusText('SonicBoom: cancelled');
    // nothing applied: the buffer is still what was loaded (not dirty),
    // and that is the file as it was
    check(await p.locator('.tab.active.dirty').count() === 0, 'peek2.c was changed');
    check(read(`${work}/peek2.c`) === read(`${T}/peek.c`), 'peek2.c changed after a cancel');
    return 'file unchanged';
  }

  /** The Refactor Preview: one entry per hunk of diff(1) between the file
   * and sb edit's output, nothing changed until Apply; the first hunk
   * checked and applied: the file is peek.first; one Undo restores it. */
  async previewAcceptHunk() {
    const p = this.page;
    await this.open('peek3.c');
    await this.edit(env('INSTR_WHOLE'));
    // the Refactor Preview's entries for text edits, each with its
    // checkbox and our annotation's label as its (hidden) title
    const hunks = p.locator('.bulk-edit-panel .monaco-tl-contents.textedit');
    await hunks.first().waitFor();
    const want = diffHunkCount(`${T}/peek.c`, `${T}/peek.expected`);
    check(await hunks.count() === want,
          `the Refactor Preview lists ${await hunks.count()} hunks, diff(1) ${want}`);
    for (let i = 0; i < want; i++) {
      const title = await hunks.nth(i).locator('div[title]').getAttribute('title');
      check(title.startsWith(`Hunk ${i + 1} of ${want}, line`), `entry ${i + 1} is '${title}'`);
      check(!await hunks.nth(i).locator('input.edit-checkbox').isChecked(),
            `hunk ${i + 1} is checked before the user checks it`);
    }
    check(await p.locator('.tab.active.dirty').count() === 0 &&
          read(`${work}/peek3.c`) === read(`${T}/peek.c`), 'peek3.c changed before Apply');
    await hunks.first().locator('input.edit-checkbox').check();
    await p.getByRole('button', { name: 'Apply', exact: true }).click();
    await this.save();
    check(read(`${work}/peek3.c`) === read(`${T}/peek.first`),
          `peek3.c is not the first hunk alone:\n${read(`${work}/peek3.c`)}`);
    await this.page.click('.monaco-editor .view-lines');
    await p.keyboard.press(`${mod}+Z`);
    await this.save();
    check(read(`${work}/peek3.c`) === read(`${T}/peek.c`), 'one Undo did not restore peek3.c');
    return `${want} hunks listed, nothing changed before Apply; the first hunk ` +
           'checked and applied: the first hunk alone; one Undo restores the file';
  }

  async changed() {
    const p = this.page;
    await this.open('ring2.c');
    await this.selectLines(26, 35);
    await this.edit(env('INSTR_MID'));
    await p.locator('.notification-toast', { hasText: 'tokens' }).waitFor();
    await this.gotoLine(1);
    await p.keyboard.type('/* typed meanwhile */\n');
    await p.locator('.notification-toast', { hasText: 'document changed' }).waitFor();
    await this.save();
    check(read(`${work}/ring2.c`) === '/* typed meanwhile */\n' + read(`${T}/ring.c`),
          `ring2.c is not the typed text alone:\n${read(`${work}/ring2.c`)}`);
    return 'refused, only the typing remains';
  }
}

main().catch((e) => { console.log(`FAIL - vscode (code-server): ${e.stack}`); process.exit(1); });
