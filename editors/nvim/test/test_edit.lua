-- End-to-end test of the Neovim plugin against the real sb-lsp and the demo
-- model on the CPU; run by editors/nvim/test/run.sh, which prepares $SB_T:
--   peek.c, ring.c          the files to edit
--   peek.expected           `sb edit` of all of peek.c (INSTR_WHOLE)
--   ring.expected           ring.c with lines 26..35 replaced by `sb edit`
--                           of those lines alone (INSTR_MID)
-- SB_TEST_MODE=edits: real edits (the whole buffer by :SonicBoomEdit, then
-- the middle of ring.c through the "Edit with an instruction…" code action
-- and its prompt); each must leave the buffer equal to the expected file
-- and be undone by a single :undo.
-- SB_TEST_MODE=held: the server runs with --test-hold-edits (it pauses
-- after its first progress report until the edit is cancelled or its
-- document changes), so cancelling mid-edit and changing the buffer
-- mid-edit happen at a known point, not by timing.
-- SB_TEST_MODE=preview: the preview (on by default; the modes above run
-- with it off): the whole of peek.c edited, its hunks shown and nothing
-- changed (preview); the first hunk accepted by its key, the rest
-- rejected: peek.first (accept-hunk); the first rejected by its key, the
-- rest accepted: peek.rest (reject-hunk); all accepted: peek.expected, and
-- one undo restores the file (accept-all); the buffer edited during the
-- preview: nothing written (preview-stale). peek.first and peek.rest come
-- from diff(1) (fixtures.sh), not from the plugin. preview-streaming: the
-- text shown while the model writes (previewStreaming; the server reports
-- every step, --test-report-steps) grows, is always a prefix of sb edit's
-- output, and gives way to the hunks at the end.
-- Exits 0 when every check passed, else prints why and exits 1.

local T = assert(os.getenv('SB_T'), 'SB_T not set')
local MODE = os.getenv('SB_TEST_MODE') or 'edits'
local INSTR_WHOLE = assert(os.getenv('INSTR_WHOLE'))
local INSTR_MID = assert(os.getenv('INSTR_MID'))
local WAIT_MS = 120000 -- a guard against a hung server, not a measurement

local function read(path)
  local f = assert(io.open(path, 'rb'))
  local s = f:read('*a')
  f:close()
  return s
end

local function log(msg) io.stdout:write(msg .. '\n') end

-- Messages the plugin showed (vim.notify), in order.
local notes = {}
vim.notify = function(msg) table.insert(notes, msg) end
local function last_note() return notes[#notes] or '' end

local function buffer_text(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local text = table.concat(lines, '\n')
  if vim.bo[bufnr].eol then text = text .. '\n' end
  return text
end

local function check(cond, msg)
  if not cond then error(msg, 2) end
end

local sb = require('sonicboom')

local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  check(vim.wait(WAIT_MS, function()
    for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
      if c.name == 'sonicboom' and c.initialized ~= false then return true end
    end
    return false
  end, 20), 'sb-lsp did not attach to ' .. path)
  return bufnr
end

local function wait_idle()
  check(vim.wait(WAIT_MS, function() return not sb.busy() end, 20),
        'the edit did not finish')
end

-- Waits until the held server has reported progress (it then pauses).
local function wait_progress()
  check(vim.wait(WAIT_MS, function() return sb.status():find('tokens') ~= nil end, 20),
        'no progress was shown; status: ' .. sb.status())
end

local tests = {}

function tests.whole_buffer()
  local bufnr = open(T .. '/peek.c')
  local before = buffer_text(bufnr)
  local seen_progress = false
  vim.cmd('SonicBoomEdit ' .. INSTR_WHOLE)
  check(sb.busy(), 'no edit started: ' .. last_note())
  vim.wait(WAIT_MS, function()
    seen_progress = seen_progress or sb.status():find('tokens') ~= nil
    return not sb.busy()
  end, 5)
  check(buffer_text(bufnr) == read(T .. '/peek.expected'),
        'buffer differs from sb edit:\n' .. buffer_text(bufnr) .. '\nnote: ' .. last_note())
  check(last_note():find('done') ~= nil, 'no done message: ' .. last_note())
  check(before ~= buffer_text(bufnr), 'the edit changed nothing')
  vim.cmd('undo')
  check(buffer_text(bufnr) == before, 'one :undo did not restore the buffer')
  log('ok - whole buffer by :SonicBoomEdit equals sb edit, one undo step' ..
      (seen_progress and ', progress shown' or ''))
end

function tests.selection_in_the_middle_by_code_action()
  local bufnr = open(T .. '/ring.c')
  local before = buffer_text(bufnr)
  -- the user picks "Edit with an instruction…" and types INSTR_MID
  local offered = {}
  vim.ui.select = function(items, opts, on_choice)
    for i, item in ipairs(items) do
      local title = (opts.format_item and opts.format_item(item)) or item.title
        or (item[2] and item[2].title) or tostring(item)
      table.insert(offered, title)
      if title:find('instruction') then return on_choice(item, i) end
    end
    on_choice(nil, nil)
  end
  vim.ui.input = function(_, on_confirm) on_confirm(INSTR_MID) end
  -- lines 26..35 (1-based), selected as a range ending inside line 35
  local last = vim.api.nvim_buf_get_lines(bufnr, 34, 35, false)[1]
  if vim.lsp.buf.range_code_action then
    vim.lsp.buf.range_code_action(nil, { 26, 0 }, { 35, #last })
  else
    vim.lsp.buf.code_action({ range = { start = { 26, 0 }, ['end'] = { 35, #last } } })
  end
  check(vim.wait(WAIT_MS, function() return sb.busy() end, 10),
        'the code action started no edit; offered: ' .. table.concat(offered, ' | '))
  wait_idle()
  check(buffer_text(bufnr) == read(T .. '/ring.expected'),
        'buffer differs from sb edit of lines 26-35:\n' .. buffer_text(bufnr) ..
        '\nnote: ' .. last_note())
  check(before ~= buffer_text(bufnr), 'the edit changed nothing')
  vim.cmd('undo')
  check(buffer_text(bufnr) == before, 'one :undo did not restore the buffer')
  log('ok - lines 26-35 of ring.c by the free-text code action equal sb edit, one undo step')
end

function tests.cancel_mid_edit()
  local bufnr = open(T .. '/peek.c')
  local before = buffer_text(bufnr)
  vim.cmd('SonicBoomEdit ' .. INSTR_WHOLE)
  wait_progress()
  vim.cmd('SonicBoomCancel')
  wait_idle()
  check(buffer_text(bufnr) == before, 'the buffer changed after a cancel')
  check(last_note():find('cancelled') ~= nil, 'no cancel message: ' .. last_note())
  log('ok - cancel mid-edit: buffer unchanged')
end

function tests.buffer_changed_during_generation()
  local bufnr = open(T .. '/ring.c')
  vim.cmd('26,35SonicBoomEdit ' .. INSTR_MID)
  wait_progress()
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { '/* typed meanwhile */' })
  local typed = buffer_text(bufnr)
  wait_idle()
  check(buffer_text(bufnr) == typed, 'something was applied to a changed buffer')
  check(last_note():find('changed') ~= nil, 'no "changed" message: ' .. last_note())
  log('ok - buffer changed during generation: refused, nothing applied')
end

-- Runs INSTR_WHOLE on peek.c with the preview on; returns the buffer and
-- its text before.
local function previewed_edit()
  local bufnr = open(T .. '/peek.c')
  local before = buffer_text(bufnr)
  vim.cmd('SonicBoomEdit ' .. INSTR_WHOLE)
  wait_idle()
  check(sb.pending(bufnr) ~= nil, 'no preview: ' .. last_note())
  check(buffer_text(bufnr) == before, 'the buffer changed before any hunk was accepted')
  return bufnr, before
end

-- The hunks diff(1)'s xdiff cousin finds between two texts (a check that
-- does not go through the plugin's hunks).
local function diff_hunks(a, b)
  return vim.diff(a, b, { result_type = 'indices' })
end

-- Puts the cursor on the first line of pending hunk i.
local function cursor_to_hunk(bufnr, i)
  vim.api.nvim_win_set_cursor(0, { sb.pending(bufnr)[i].start + 1, 0 })
end

function tests.preview()
  local bufnr, before = previewed_edit()
  local expected = read(T .. '/peek.expected')
  local want = diff_hunks(before, expected)
  local pending = sb.pending(bufnr)
  check(#pending == #want, string.format('%d hunks shown, diff finds %d', #pending, #want))
  check(#want > 1, 'the fixture needs two hunks or more')
  -- what is shown: the new lines of each hunk, as diff sees them
  local exp_lines = vim.split(expected, '\n', true)
  local shown = require('sonicboom.preview').shown(bufnr)
  local all_new = {}
  for _, h in ipairs(want) do
    for l = h[3], h[3] + h[4] - 1 do all_new[#all_new + 1] = exp_lines[l] end
  end
  check(vim.deep_equal(shown, all_new), 'the virtual lines differ from the new lines:\n'
        .. vim.inspect(shown) .. '\n' .. vim.inspect(all_new))
  check(last_note():find('to review') ~= nil, 'no "to review" message: ' .. last_note())
  check(vim.fn.maparg('ga', 'n') ~= '', 'no ga map during the preview')
  vim.cmd('SonicBoomRejectAll')
  check(buffer_text(bufnr) == before, 'rejecting all changed the buffer')
  check(sb.pending(bufnr) == nil, 'the preview is still open after rejecting all')
  check(vim.fn.maparg('ga', 'n') == '', 'the ga map outlived the preview')
  log(string.format('ok - nvim preview: %d hunks shown as virtual lines, buffer unchanged, ' ..
                    'reject all leaves it so', #pending))
end

tests['accept-hunk'] = function()
  local bufnr, before = previewed_edit()
  cursor_to_hunk(bufnr, 1)
  vim.cmd('normal ga')
  vim.cmd('SonicBoomRejectAll')
  check(buffer_text(bufnr) == read(T .. '/peek.first'),
        'buffer differs from peek.c with the first hunk only:\n' .. buffer_text(bufnr))
  vim.cmd('undo')
  check(buffer_text(bufnr) == before, 'one :undo did not restore the buffer')
  log('ok - nvim accept-hunk: ga on the first hunk, the rest rejected: the first hunk only, one undo')
end

tests['reject-hunk'] = function()
  local bufnr, before = previewed_edit()
  cursor_to_hunk(bufnr, 1)
  vim.cmd('normal gr')
  check(buffer_text(bufnr) == before, 'rejecting a hunk changed the buffer')
  vim.cmd('normal gA')
  check(buffer_text(bufnr) == read(T .. '/peek.rest'),
        'buffer differs from the edit without its first hunk:\n' .. buffer_text(bufnr))
  log('ok - nvim reject-hunk: gr on the first hunk, the rest accepted: all but the first hunk')
end

tests['accept-all'] = function()
  local bufnr, before = previewed_edit()
  local n = #sb.pending(bufnr)
  vim.cmd('SonicBoomAcceptAll')
  check(buffer_text(bufnr) == read(T .. '/peek.expected'),
        'buffer differs from sb edit:\n' .. buffer_text(bufnr))
  check(last_note():find(string.format('%d of %d', n, n)) ~= nil, 'no summary: ' .. last_note())
  vim.cmd('undo')
  check(buffer_text(bufnr) == before, 'one :undo did not restore the buffer')
  log('ok - nvim accept-all: equals sb edit, one undo step restores the buffer')
end

tests['preview-stale'] = function()
  local bufnr = previewed_edit()
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { '/* typed meanwhile */' })
  local typed = buffer_text(bufnr)
  check(not sb.accept_all(), 'accept all went ahead on an edited buffer')
  check(buffer_text(bufnr) == typed, 'the preview wrote into an edited buffer')
  check(last_note():find('changed during the preview') ~= nil, 'no message: ' .. last_note())
  log('ok - nvim preview-stale: the buffer edited during the preview: nothing written, told so')
end

-- previewStreaming: while the model writes, the provisional view shows
-- the region's new text so far, each a prefix of sb edit's output and of
-- the next; at the end it is gone and the real hunks are shown; nothing
-- in the buffer changed.
tests['preview-streaming'] = function()
  local P = require('sonicboom.preview')
  local bufnr = open(T .. '/peek.c')
  local before = buffer_text(bufnr)
  -- every provisional view the plugin shows, as it shows it
  local seen = {}
  local show = P.show_partial
  P.show_partial = function(...)
    show(...)
    local lines = P.partial(bufnr)
    seen[#seen + 1] = lines and table.concat(lines, '\n') or ''
  end
  vim.cmd('SonicBoomEdit ' .. INSTR_WHOLE)
  wait_idle()
  P.show_partial = show
  check(#seen > 1, #seen .. ' provisional view(s) shown while the model wrote: ' .. last_note())
  local expected = read(T .. '/peek.expected')
  for i, text in ipairs(seen) do
    check(expected:sub(1, #text) == text, 'shown text is not a prefix of sb edit:\n' .. text)
    check(i == 1 or text:sub(1, #seen[i - 1]) == seen[i - 1], 'the shown text shrank')
  end
  check(P.partial(bufnr) == nil, 'the provisional view outlived the edit')
  check(sb.pending(bufnr) ~= nil, 'no hunks shown at the end: ' .. last_note())
  check(buffer_text(bufnr) == before, 'the buffer changed before any hunk was accepted')
  vim.cmd('SonicBoomRejectAll')
  log(string.format('ok - nvim preview-streaming: %d growing provisional views, each a ' ..
                    'prefix of sb edit, then the hunks; buffer unchanged', #seen))
end

local orders = {
  held = { 'cancel_mid_edit', 'buffer_changed_during_generation' },
  preview = { 'preview', 'accept-hunk', 'reject-hunk', 'accept-all', 'preview-stale',
              'preview-streaming' },
  edits = { 'whole_buffer', 'selection_in_the_middle_by_code_action' },
}
local order = orders[MODE] or orders.edits

vim.cmd('filetype on')
local lsp_cmd = { assert(os.getenv('SB_LSP')), '--stdio' }
if MODE == 'held' then lsp_cmd = { lsp_cmd[1], '--stdio', '--test-hold-edits' } end
-- a report after every step: the preview-streaming test sees the text
-- grow however fast this machine writes it
if MODE == 'preview' then lsp_cmd = { lsp_cmd[1], '--stdio', '--test-report-steps' } end
sb.setup({ cmd = lsp_cmd, filetypes = { 'c' }, model = os.getenv('SB_TEST_MODEL'),
           threads = 2, echo_progress = false, preview = MODE == 'preview' })

local failed = 0
for _, name in ipairs(order) do
  local ok, err = pcall(tests[name])
  if not ok then
    failed = failed + 1
    log('FAIL - ' .. name .. ': ' .. tostring(err))
  end
  vim.cmd('silent! %bwipeout!')
end
log(string.format('%d passed, %d failed', #order - failed, failed))
vim.cmd(failed == 0 and 'qall!' or 'cquit 1')
