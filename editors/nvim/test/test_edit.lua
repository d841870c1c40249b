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
-- SB_TEST_MODE=held: the server runs with SB_LSP_TEST_HOLD=1 (it pauses
-- after its first progress report until the edit is cancelled or its
-- document changes), so cancelling mid-edit and changing the buffer
-- mid-edit happen at a known point, not by timing.
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

local order = MODE == 'held'
  and { 'cancel_mid_edit', 'buffer_changed_during_generation' }
  or { 'whole_buffer', 'selection_in_the_middle_by_code_action' }

vim.cmd('filetype on')
local lsp_cmd = { assert(os.getenv('SB_LSP')), '--stdio' }
if MODE == 'held' then lsp_cmd = { 'env', 'SB_LSP_TEST_HOLD=1', lsp_cmd[1], '--stdio' } end
sb.setup({ cmd = lsp_cmd, filetypes = { 'c' }, model = os.getenv('SB_TEST_MODEL'),
           threads = 2, echo_progress = false })

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
