-- sonicboom — Neovim client for the SonicBoom language server (sb-lsp).
--
-- Works on Neovim 0.7.2 (Debian 12) and newer: where vim.lsp.start exists
-- (0.8+) it is used, else vim.lsp.start_client + buf_attach_client with one
-- client per project root.
--
--   require('sonicboom').setup({ model = '/models/qwen2.5-coder-7b-q4_k_m.gguf' })
--   :SonicBoomEdit rename parse to parse_line      (a range, or the buffer)
--   :SonicBoomCancel
--   :SonicBoomAccept / :SonicBoomReject       the previewed hunk at the cursor
--   :SonicBoomAcceptAll / :SonicBoomRejectAll every previewed hunk left
--
-- How an edit runs: workspace/executeCommand "sonicboom.edit" with our own
-- workDoneToken, so that $/progress arrives for it on every Neovim version;
-- the server answers with workspace/applyEdit and then the command's result.
-- With the preview on (the default) the edit is shown in the buffer and
-- nothing changes until the user accepts hunks (preview.lua); off,
-- Neovim's handler applies it at once (one undo step). Cancelling sends
-- window/workDoneProgress/cancel for that token: the server stops, ends the
-- progress with "cancelled" and answers -32800, nothing applied. Neovim's
-- RPC layer drops -32800 answers without calling us, so a cancel we asked
-- for is finished by that progress end. If the buffer changes while the
-- model writes, the server refuses to apply (-32801) and we say so.

local preview = require('sonicboom.preview')

local M = {}

local defaults = {
  cmd = { 'sb-lsp', '--stdio' },
  -- filetypes the server attaches to
  filetypes = { 'c', 'cpp', 'python', 'javascript', 'typescript', 'typescriptreact',
                'rust', 'go', 'java', 'json', 'sh', 'lua', 'yaml', 'markdown' },
  root_markers = { '.git' },
  -- server settings (initializationOptions); nil: the server's default
  model = nil,       -- GGUF path (default: the demo model installed with sb-lsp)
  device = nil,      -- 'cpu' or 'cuda'
  threads = nil,     -- CPU threads (0: all)
  seed = nil,        -- sampling seed
  temperature = nil, -- 0: greedy
  log = nil,         -- session log path (JSON lines; `sb replay` re-runs it)
  max_tokens = nil,  -- output cap (0: automatic)
  -- show progress in the echo area (the statusline can use status())
  echo_progress = true,
  -- show the edit's hunks before anything changes; false: apply at once
  preview = true,
  -- with the preview on: show the edit's text while the model writes it
  -- (the server's previewStreaming), replaced by the hunks at the end
  preview_streaming = true,
  -- buffer-local normal-mode keys while a preview is shown (false: none;
  -- the :SonicBoomAccept... commands always work)
  preview_keys = { accept = 'ga', reject = 'gr', accept_all = 'gA', reject_all = 'gR',
                   next = ']c', prev = '[c' },
}

local config = vim.deepcopy(defaults)

-- The edit in flight, or nil: { client, bufnr, token, message, title,
-- cancelling }.
local running = nil
local token_counter = 0
local finish -- defined below
local after_prompt -- defined below

local function notify(msg, level)
  vim.notify('SonicBoom: ' .. msg, level or vim.log.levels.INFO)
end

local function echo(msg)
  if config.echo_progress then
    vim.api.nvim_echo({ { msg } }, false, {})
  end
  vim.cmd('redrawstatus')
end

-- The project root of a buffer: the nearest folder upward holding one of
-- root_markers, else the current directory.
local function root_of(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  while dir and dir ~= '' do
    for _, marker in ipairs(config.root_markers) do
      if vim.fn.isdirectory(dir .. '/' .. marker) == 1
          or vim.fn.filereadable(dir .. '/' .. marker) == 1 then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then break end
    dir = parent
  end
  return vim.fn.getcwd()
end

local function init_options()
  local o = {
    model = config.model, device = config.device, threads = config.threads,
    seed = config.seed, temperature = config.temperature, log = config.log,
    maxTokens = config.max_tokens,
    previewStreaming = (config.preview and config.preview_streaming) or nil,
  }
  return next(o) and o or nil
end

-- Ends `edit` (if it is still the running one) with a message to the user.
finish = function(edit, msg, level)
  if running ~= edit then return end
  running = nil
  if edit.partial then preview.clear_partial(edit.bufnr) end
  notify(msg, level)
  vim.cmd('redrawstatus')
end

-- Shows $/progress for our token (the default handler still runs first, so
-- other plugins that read client.messages keep working).
local function on_progress(err, result, ctx, cfg)
  local default = vim.lsp.handlers['$/progress']
  if default then pcall(default, err, result, ctx, cfg) end
  if not running or not result or result.token ~= running.token then return end
  local v = result.value or {}
  if v.kind == 'begin' then
    running.title = v.title
  end
  -- previewStreaming: the next piece of the region's new text
  local piece = v.sonicboom
  if config.preview and type(piece) == 'table' and type(piece.text) == 'string'
      and piece.offset == #(running.partial or '') then
    running.partial = (running.partial or '') .. piece.text
    preview.show_partial(running.bufnr, running.first, running.last, running.partial)
  end
  if v.kind == 'end' and running.cancelling and v.message == 'cancelled' then
    finish(running, 'cancelled; nothing was applied')
    return
  end
  if v.message then
    running.message = (running.title or 'SonicBoom') .. ': ' .. v.message
    echo(running.message)
  end
end

-- The keys of the preview hint and maps: preview_keys, or none.
local function preview_keys()
  return config.preview_keys or {}
end

-- workspace/applyEdit from sb-lsp: with the preview on, each document's
-- edits become a preview (nothing changes yet) and the answer is
-- "applied": the client has taken the edit, the user decides per hunk.
-- An edit made from another version of the buffer than the one shown is
-- refused, as Neovim's own handler does.
local function on_apply_edit(err, params, ctx, cfg)
  if not config.preview then
    return vim.lsp.handlers['workspace/applyEdit'](err, params, ctx, cfg)
  end
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local edit = params and params.edit or {}
  -- documentChanges (versioned) where the client announced them, else
  -- changes, a map from URI to edits (Neovim 0.7 announces none)
  local changes = edit.documentChanges or {}
  for uri, edits in pairs(edit.changes or {}) do
    table.insert(changes, { textDocument = { uri = uri }, edits = edits })
  end
  local shown = 0
  for _, change in ipairs(changes) do
    local doc = change.textDocument or {}
    local bufnr = vim.uri_to_bufnr(doc.uri or '')
    local version = M._buf_version(bufnr)
    if doc.version and version and doc.version ~= version then
      return { applied = false, failureReason = 'the buffer changed; nothing applied' }
    end
    shown = shown + preview.open(bufnr, change.edits or {}, {
      encoding = client and client.offset_encoding or 'utf-16',
      keys = preview_keys(),
      notify = function(msg) notify(msg) end })
  end
  if shown > 0 and running then running.previewed = shown end
  return { applied = true }
end

local function client_config(bufnr)
  local caps = vim.lsp.protocol.make_client_capabilities()
  -- we complete sonicboom.editWithInstruction (the free-text code action)
  caps.experimental = caps.experimental or {}
  caps.experimental.sonicboom = { instructionPrompt = true }
  return {
    name = 'sonicboom',
    cmd = config.cmd,
    root_dir = root_of(bufnr),
    init_options = init_options(),
    capabilities = caps,
    handlers = { ['$/progress'] = on_progress, ['workspace/applyEdit'] = on_apply_edit },
  }
end

-- Neovim 0.7 has no vim.lsp.start: one client per root, reused.
local clients_by_root = {}

local function attach(bufnr)
  local cfg = client_config(bufnr)
  if vim.lsp.start then
    vim.lsp.start(cfg, { bufnr = bufnr })
    return
  end
  local id = clients_by_root[cfg.root_dir]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(cfg)
    if not id then
      notify('cannot start ' .. table.concat(config.cmd, ' '), vim.log.levels.ERROR)
      return
    end
    clients_by_root[cfg.root_dir] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

-- The sonicboom client attached to bufnr, or nil.
local function client_of(bufnr)
  local list = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr })
               or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(list) do
    if c.name == 'sonicboom' then return c end
  end
  return nil
end

-- Client methods are called with ':' from 0.11 on (the '.' form warns).
local method_style = vim.fn.has('nvim-0.11') == 1
local function client_request(c, ...)
  if method_style then return c:request(...) end
  return c.request(...)
end
local function client_notify(c, ...)
  if method_style then return c:notify(...) end
  return c.notify(...)
end

-- What the server's error codes mean to the user.
local function describe_error(err)
  if err.code == -32800 then return 'cancelled; nothing was applied' end
  if err.code == -32801 then
    return 'the buffer changed during the edit; nothing was applied'
  end
  return err.message or vim.inspect(err)
end

-- Sends sonicboom.edit with `arg` ({uri, instruction, range?, version?}).
local function run(client, bufnr, arg)
  if running then
    notify('an edit is already running (:SonicBoomCancel stops it)', vim.log.levels.WARN)
    return
  end
  token_counter = token_counter + 1
  local token = 'sonicboom/nvim/' .. vim.fn.getpid() .. '/' .. token_counter
  -- the region's lines (0-based, end exclusive), for the provisional view
  local first = arg.range and arg.range.start.line or 0
  local last = arg.range and arg.range['end'].line or vim.api.nvim_buf_line_count(bufnr)
  local edit = { client = client, bufnr = bufnr, token = token,
                 message = 'SonicBoom: starting', first = first, last = last }
  running = edit
  echo(edit.message)
  local params = { command = 'sonicboom.edit', arguments = { arg }, workDoneToken = token }
  local ok = client_request(client, 'workspace/executeCommand', params, function(err, result)
    if err then
      local level = (err.code == -32800) and vim.log.levels.INFO or vim.log.levels.WARN
      finish(edit, describe_error(err), level)
    else
      result = result or {}
      if edit.previewed then
        local k = preview_keys()
        finish(edit, string.format('%d change(s) to review: %s', edit.previewed,
               k.accept and string.format('%s accept, %s reject, %s accept all, %s reject all, %s next',
                                          k.accept, k.reject or '-', k.accept_all or '-',
                                          k.reject_all or '-', k.next or '-')
               or ':SonicBoomAccept, :SonicBoomReject, :SonicBoomAcceptAll, :SonicBoomRejectAll'))
      else
        finish(edit, string.format('done: %d change(s), %d tokens', result.hunks or 0,
                                   result.tokens or 0))
      end
    end
  end, bufnr)
  if not ok then
    running = nil
    notify('the server is not running', vim.log.levels.ERROR)
  end
end

-- The version the client last sent for bufnr (the server refuses the edit
-- when its copy is at another one); nil leaves it out.
local function buf_version(bufnr)
  if vim.fn.has('nvim-0.11') == 1 then return vim.b[bufnr].changedtick end
  local versions = vim.lsp.util.buf_versions
  return versions and versions[bufnr] or nil
end
M._buf_version = buf_version

-- Edits lines line1..line2 (1-based, inclusive) of bufnr, or the whole
-- buffer when line1 is nil. Asks for the instruction when it is empty.
function M.edit(instruction, line1, line2, bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = client_of(bufnr)
  if not client then
    notify('sb-lsp is not attached to this buffer (filetype ' .. vim.bo[bufnr].filetype
           .. '; see require("sonicboom").setup{filetypes=...})', vim.log.levels.ERROR)
    return
  end
  local function go(text)
    if not text or text == '' then return end
    local arg = { uri = vim.uri_from_bufnr(bufnr), instruction = text,
                  version = buf_version(bufnr) }
    if line1 then
      -- whole lines: from the start of line1 to the start of the next line
      arg.range = { start = { line = line1 - 1, character = 0 },
                    ['end'] = { line = line2, character = 0 } }
    end
    run(client, bufnr, arg)
  end
  if instruction and instruction ~= '' then
    go(instruction)
  else
    vim.ui.input({ prompt = 'SonicBoom: ' }, go)
  end
end

-- Stops the running edit; nothing is applied.
function M.cancel()
  if not running then
    notify('no edit is running')
    return
  end
  running.cancelling = true
  client_notify(running.client, 'window/workDoneProgress/cancel',
                { token = running.token })
  running.message = 'SonicBoom: cancelling'
  echo(running.message)
end

-- For the statusline: the running edit's progress, else ''.
--   set statusline+=%{v:lua.require'sonicboom'.status()}
function M.status()
  return running and running.message or ''
end

-- True while an edit runs.
function M.busy()
  return running ~= nil
end

-- The preview of the current buffer: the hunk at the cursor (or hunk i of
-- those left), or all hunks left. Accepting changes the buffer (one undo
-- step); rejecting changes nothing. False when there is no preview.
function M.accept(i) return preview.decide(0, true, i) end
function M.reject(i) return preview.decide(0, false, i) end
function M.accept_all() return preview.decide_all(0, true) end
function M.reject_all() return preview.decide_all(0, false) end

-- The hunks still previewed in bufnr (default: the current buffer):
-- { {start = 0-based row, old = lines, new = lines} ... }, or nil.
function M.pending(bufnr)
  return preview.pending((bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr)
end

-- Runs fn once the prompts that asked for it are gone from the screen.
-- On 0.7 the code action menu (inputlist) scrolls the message area; a
-- message echoed from inside the input() that follows it leaves "Press
-- ENTER or type command to continue" on the screen, and the edit waits for
-- that key. Scheduled, after a redraw, the echo lands on a clean screen.
after_prompt = function(fn)
  vim.schedule(function()
    vim.cmd('redraw')
    fn()
  end)
end

-- The free-text code action: the server offers it with {uri, range,
-- version}; we ask for the instruction and send sonicboom.edit.
local function edit_with_instruction(command, ctx)
  local arg = vim.deepcopy((command.arguments or {})[1] or {})
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local bufnr = ctx.bufnr or vim.uri_to_bufnr(arg.uri)
  if not client or not arg.uri then return end
  vim.ui.input({ prompt = 'SonicBoom: ' }, function(text)
    if not text or text == '' then return end
    arg.instruction = text
    after_prompt(function() run(client, bufnr, arg) end)
  end)
end

function M.setup(opts)
  -- shallow: a list given (cmd, filetypes) replaces the default list whole
  config = vim.tbl_extend('force', vim.deepcopy(defaults), opts or {})
  vim.lsp.commands['sonicboom.editWithInstruction'] = edit_with_instruction
  local group = vim.api.nvim_create_augroup('sonicboom', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = config.filetypes,
    callback = function(ev) attach(ev.buf) end,
  })
  vim.api.nvim_create_user_command('SonicBoomEdit', function(c)
    if c.range == 0 then
      M.edit(c.args)
    else
      M.edit(c.args, c.line1, c.line2)
    end
  end, { nargs = '*', range = true,
         desc = 'SonicBoom: edit the range (or the buffer) as instructed' })
  vim.api.nvim_create_user_command('SonicBoomCancel', function() M.cancel() end,
                                   { desc = 'SonicBoom: stop the running edit' })
  local function decided(ok)
    if not ok then notify('no preview in this buffer') end
  end
  vim.api.nvim_create_user_command('SonicBoomAccept', function() decided(M.accept()) end,
                                   { desc = 'SonicBoom: apply the previewed hunk at the cursor' })
  vim.api.nvim_create_user_command('SonicBoomReject', function() decided(M.reject()) end,
                                   { desc = 'SonicBoom: drop the previewed hunk at the cursor' })
  vim.api.nvim_create_user_command('SonicBoomAcceptAll', function() decided(M.accept_all()) end,
                                   { desc = 'SonicBoom: apply every previewed hunk left' })
  vim.api.nvim_create_user_command('SonicBoomRejectAll', function() decided(M.reject_all()) end,
                                   { desc = 'SonicBoom: drop every previewed hunk left' })
  -- buffers already open with a matching filetype
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b)
        and vim.tbl_contains(config.filetypes, vim.bo[b].filetype) then
      attach(b)
    end
  end
end

return M
