-- The Neovim plugin on a real screen (editors/nvim/test/screen.sh runs this
-- in a terminal Neovim under tmux and types as a user would). This file
-- only sets the plugin up as its README does, opens $SB_T/screen/ring.c
-- and reports to $SB_TEST_OUT, one line each:
--   ready             the server is attached and initialized
--   review <n>        the edit ended in a preview of n hunks, the buffer
--                     unchanged (else "review none: <message shown>")
--   done <result>     the preview closed; <result> is "equal" when the
--                     buffer equals ring.expected, else the message shown
local T = assert(os.getenv('SB_T'), 'SB_T not set')
local OUT = assert(os.getenv('SB_TEST_OUT'), 'SB_TEST_OUT not set')

local function report(line)
  local f = assert(io.open(OUT, 'a'))
  f:write(line .. '\n')
  f:close()
end

local function read(path)
  local f = assert(io.open(path, 'rb'))
  local s = f:read('*a')
  f:close()
  return s
end

-- what the plugin tells the user, shown as usual and remembered
local last_note = ''
local notify = vim.notify
vim.notify = function(msg, ...)
  last_note = msg
  return notify(msg, ...)
end

vim.cmd('filetype on')
local sb = require('sonicboom')
sb.setup({ cmd = { assert(os.getenv('SB_LSP')), '--stdio' }, filetypes = { 'c' },
           model = os.getenv('SB_TEST_MODEL'), threads = 2 })
vim.cmd('edit ' .. vim.fn.fnameescape(T .. '/screen/ring.c'))
local bufnr = vim.api.nvim_get_current_buf()

local function buffer_text()
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  return vim.bo[bufnr].eol and text .. '\n' or text
end

-- polled, not waited for: vim.wait would hold the screen the test reads
local state = 'starting'
local timer = vim.loop.new_timer()
timer:start(50, 50, vim.schedule_wrap(function()
  if state == 'starting' then
    for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
      -- 0.7 sets offset_encoding when the server has answered initialize
      if c.name == 'sonicboom' and c.initialized ~= false and c.offset_encoding then
        state = 'ready'
        report('ready')
      end
    end
  elseif state == 'ready' and sb.busy() then
    state = 'running'
  elseif state == 'running' and not sb.busy() then
    state = 'review'
    local pending = sb.pending(bufnr)
    if pending and buffer_text() == read(T .. '/ring.c') then
      report('review ' .. #pending)
    else
      report('review none: ' .. last_note)
    end
  elseif state == 'review' and not sb.pending(bufnr) then
    state = 'done'
    timer:stop()
    local equal = buffer_text() == read(T .. '/ring.expected')
    report('done ' .. (equal and 'equal' or ('differs: ' .. last_note)))
  end
end))
