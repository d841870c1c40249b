-- sonicboom.preview — an edit shown in its buffer before anything changes,
-- accepted or rejected hunk by hunk (init.lua routes the server's
-- workspace/applyEdit here when the preview is on).
--
-- Each TextEdit of the server's WorkspaceEdit is one hunk (lsp/diff.c makes
-- one per block of changed lines), widened here to whole lines: the lines
-- it replaces are highlighted DiffDelete, the lines it would put there are
-- shown below them as virtual lines in DiffAdd. Nothing in the buffer
-- changes until a hunk is accepted; accepting replaces exactly its lines
-- (one undo step; "accept all" is one undo step for every hunk left).
-- Extmarks keep each hunk's place while other hunks are accepted.
--
-- A buffer edited during the preview is never written to: every accept
-- first compares b:changedtick with the tick after our own last change,
-- and a TextChanged autocmd closes the preview as soon as the user types.

local M = {}

local ns = vim.api.nvim_create_namespace('sonicboom_preview')

-- bufnr -> { hunks = { {mark, old, new} ... }, tick, total, accepted, keys,
-- notify }; a hunk: mark = extmark id at its first line, old/new = lines.
local previews = {}

local function lines_of(text)
  return vim.split(text, '\n', true)
end

-- The byte column of an LSP position's character in `line`.
local function byte_col(line, character, encoding)
  if encoding == 'utf-8' then return math.min(character, #line) end
  local ok, col = pcall(vim.str_byteindex, line, character, encoding ~= 'utf-32')
  return ok and col or #line
end

-- The TextEdits of one buffer as whole-line hunks {start, old, new}
-- (start 0-based), in buffer order. Edits whose lines meet are merged, and
-- lines a hunk leaves as they were are trimmed from both ends.
function M.hunks_of(buf_lines, edits, encoding)
  local sorted = vim.deepcopy(edits)
  table.sort(sorted, function(a, b)
    local x, y = a.range.start, b.range.start
    return x.line < y.line or (x.line == y.line and x.character < y.character)
  end)
  -- group edits whose line spans meet
  local groups = {}
  for _, e in ipairs(sorted) do
    local g = groups[#groups]
    if g and e.range.start.line <= g.last then
      table.insert(g.edits, e)
      g.last = math.max(g.last, e.range['end'].line)
    else
      table.insert(groups, { first = e.range.start.line, last = e.range['end'].line,
                             edits = { e } })
    end
  end
  local hunks = {}
  for _, g in ipairs(groups) do
    -- the span's lines (a position past the last line is an empty line)
    local old = {}
    for l = g.first, g.last do old[#old + 1] = buf_lines[l + 1] or '' end
    local text = table.concat(old, '\n')
    local starts = { 0 }
    for i = 1, #old do starts[i + 1] = starts[i] + #old[i] + 1 end
    local function offset(p)
      local i = p.line - g.first + 1
      return starts[i] + byte_col(old[i], p.character, encoding)
    end
    for i = #g.edits, 1, -1 do
      local e = g.edits[i]
      local a, b = offset(e.range.start), offset(e.range['end'])
      text = text:sub(1, a) .. e.newText .. text:sub(b + 1)
    end
    local new = lines_of(text)
    local head, tail = 0, 0
    while head < #old and head < #new and old[head + 1] == new[head + 1] do head = head + 1 end
    while tail < #old - head and tail < #new - head
        and old[#old - tail] == new[#new - tail] do tail = tail + 1 end
    local o, n = {}, {}
    for i = head + 1, #old - tail do o[#o + 1] = old[i] end
    for i = head + 1, #new - tail do n[#n + 1] = new[i] end
    if #o > 0 or #n > 0 then
      table.insert(hunks, { start = g.first + head, old = o, new = n })
    end
  end
  return hunks
end

-- Draws hunk h (its extmark id h.mark is set here) at row `start`.
local function draw(bufnr, h, start, index, total, hint)
  local count = vim.api.nvim_buf_line_count(bufnr)
  local virt = {}
  for _, l in ipairs(h.new) do virt[#virt + 1] = { { l, 'DiffAdd' } } end
  local opts = { virt_text = { { string.format('SonicBoom %d/%d%s', index, total, hint),
                                 'Comment' } } }
  if #h.old > 0 then
    opts.end_row = start + #h.old - 1
    opts.end_col = #(vim.api.nvim_buf_get_lines(bufnr, opts.end_row, opts.end_row + 1,
                                                false)[1] or '')
    opts.hl_group = 'DiffDelete'
    opts.hl_eol = true
  end
  -- the new lines: below the old ones, or above the line they go before
  if #virt > 0 then
    h.virt = vim.api.nvim_buf_set_extmark(bufnr, ns, math.min(start + math.max(#h.old - 1, 0),
                                          count - 1), 0,
      { virt_lines = virt, virt_lines_above = #h.old == 0 and start < count })
  end
  h.mark = vim.api.nvim_buf_set_extmark(bufnr, ns, math.min(start, count - 1), 0, opts)
end

local function undraw(bufnr, h)
  pcall(vim.api.nvim_buf_del_extmark, bufnr, ns, h.mark)
  if h.virt then pcall(vim.api.nvim_buf_del_extmark, bufnr, ns, h.virt) end
end

local function row_of(bufnr, h)
  local pos = vim.api.nvim_buf_get_extmark_by_id(bufnr, ns, h.mark, {})
  local row = assert(pos[1], 'a previewed hunk lost its extmark')
  -- an insertion past the last line was drawn on the last line
  if #h.old == 0 and h.start_past_end then row = row + 1 end
  return row
end

local function close(bufnr, msg)
  local p = previews[bufnr]
  if not p then return end
  previews[bufnr] = nil
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  for _, lhs in pairs(p.keys or {}) do
    if lhs then pcall(vim.api.nvim_buf_del_keymap, bufnr, 'n', lhs) end
  end
  pcall(vim.api.nvim_del_augroup_by_name, 'sonicboom_preview_' .. bufnr)
  if msg then p.notify(msg) end
end

local function summary(p)
  return string.format('%d of %d change(s) applied', p.accepted, p.total)
end

-- The preview of bufnr, or nil after telling the user why there is none
-- (or why it is over: the buffer was edited during it).
local function current(bufnr)
  local p = previews[bufnr]
  if not p then return nil end
  if vim.api.nvim_buf_get_changedtick(bufnr) ~= p.tick then
    close(bufnr, 'the buffer changed during the preview; nothing more was applied ('
          .. summary(p) .. ')')
    return nil
  end
  return p
end

-- The hunk at the cursor's line, else the first one after it, else the last.
local function hunk_at_cursor(bufnr, p)
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local best
  for i, h in ipairs(p.hunks) do
    local r = row_of(bufnr, h)
    if row >= r and row < r + math.max(#h.old, 1) then return i end
    if not best and r >= row then best = i end
  end
  return best or #p.hunks
end

local function apply(bufnr, h)
  local r = row_of(bufnr, h)
  vim.api.nvim_buf_set_lines(bufnr, r, r + #h.old, false, h.new)
end

local function after_change(bufnr, p)
  p.tick = vim.api.nvim_buf_get_changedtick(bufnr)
  if #p.hunks == 0 then close(bufnr, 'preview done: ' .. summary(p)) end
end

-- Accepts (accept = true) or rejects hunk i of bufnr's preview (default:
-- the hunk at the cursor). Returns false when there is no preview.
function M.decide(bufnr, accept, i)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local p = current(bufnr)
  if not p or #p.hunks == 0 then return false end
  i = i or hunk_at_cursor(bufnr, p)
  local h = table.remove(p.hunks, i)
  if accept then
    apply(bufnr, h) -- before undraw: its place is its extmark's
    p.accepted = p.accepted + 1
  end
  undraw(bufnr, h)
  after_change(bufnr, p)
  return true
end

-- Accepts or rejects every hunk left; accepting them is one undo step.
function M.decide_all(bufnr, accept)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local p = current(bufnr)
  if not p then return false end
  if accept then
    -- bottom to top: a hunk's lines never move before it is applied
    for i = #p.hunks, 1, -1 do apply(bufnr, p.hunks[i]) end
    p.accepted = p.accepted + #p.hunks
  end
  for _, h in ipairs(p.hunks) do undraw(bufnr, h) end
  p.hunks = {}
  after_change(bufnr, p)
  return true
end

-- Moves the cursor to the next (dir 1) or previous (dir -1) hunk.
function M.jump(dir)
  local bufnr = vim.api.nvim_get_current_buf()
  local p = current(bufnr)
  if not p or #p.hunks == 0 then return end
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local rows = {}
  for _, h in ipairs(p.hunks) do rows[#rows + 1] = row_of(bufnr, h) end
  local target = dir > 0 and rows[1] or rows[#rows]
  for k = 1, #rows do
    local r = dir > 0 and rows[k] or rows[#rows - k + 1]
    if (dir > 0 and r > row) or (dir < 0 and r < row) then target = r break end
  end
  vim.api.nvim_win_set_cursor(0, { target + 1, 0 })
end

-- The hunks still pending in bufnr's preview: { {start, old, new} ... }
-- (start 0-based, where they are now), or nil without a preview.
function M.pending(bufnr)
  local p = previews[bufnr]
  if not p then return nil end
  local out = {}
  for _, h in ipairs(p.hunks) do
    out[#out + 1] = { start = row_of(bufnr, h), old = h.old, new = h.new }
  end
  return out
end

-- What the user sees of bufnr's preview: the virtual lines, in order.
function M.shown(bufnr)
  local out = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })) do
    for _, vl in ipairs(m[4].virt_lines or {}) do
      out[#out + 1] = vl[1][1]
    end
  end
  return out
end

local function map_keys(bufnr, keys)
  local actions = {
    accept = function() M.decide(bufnr, true) end,
    reject = function() M.decide(bufnr, false) end,
    accept_all = function() M.decide_all(bufnr, true) end,
    reject_all = function() M.decide_all(bufnr, false) end,
    next = function() M.jump(1) end,
    prev = function() M.jump(-1) end,
  }
  for name, lhs in pairs(keys) do
    if lhs and actions[name] then
      vim.api.nvim_buf_set_keymap(bufnr, 'n', lhs, '', {
        noremap = true, nowait = true, callback = actions[name],
        desc = 'SonicBoom preview: ' .. name:gsub('_', ' ') })
    end
  end
end

-- Shows `edits` (TextEdits of the server's answer for bufnr) as a
-- preview. opts: encoding (the client's offset encoding), keys (lhs by
-- action, false: none), notify (function(msg)). Replaces any earlier
-- preview of that buffer. Returns the number of hunks shown.
-- ---- the provisional view while the model writes -------------------------
--
-- With previewStreaming (init.lua asks for it when the preview is on),
-- sb-lsp's progress reports carry the region's new text as far as it is
-- sure. Until the edit ends, the region's lines are marked DiffChange and
-- that text is shown below them as virtual lines; the real hunks replace
-- it (M.open), and a cancelled or failed edit drops it (M.clear_partial).
-- Nothing in the buffer changes.

local ns_partial = vim.api.nvim_create_namespace('sonicboom_partial')
local partials = {} -- bufnr -> the provisional lines shown

-- Shows `text` (the region's new text so far) as the provisional view of
-- lines first .. last - 1 (0-based) of bufnr.
function M.show_partial(bufnr, first, last, text)
  if not vim.api.nvim_buf_is_valid(bufnr) then return end
  vim.api.nvim_buf_clear_namespace(bufnr, ns_partial, 0, -1)
  local n = vim.api.nvim_buf_line_count(bufnr)
  last = math.max(math.min(last, n), first + 1)
  local lines = lines_of(text)
  local virt = { { { 'SonicBoom is writing (not applied yet):', 'Comment' } } }
  for _, l in ipairs(lines) do virt[#virt + 1] = { { l, 'DiffAdd' } } end
  for l = first, math.min(last, n) - 1 do
    vim.api.nvim_buf_add_highlight(bufnr, ns_partial, 'DiffChange', l, 0, -1)
  end
  vim.api.nvim_buf_set_extmark(bufnr, ns_partial, math.min(last, n) - 1, 0,
                               { virt_lines = virt })
  partials[bufnr] = lines
end

function M.clear_partial(bufnr)
  if vim.api.nvim_buf_is_valid(bufnr) then
    vim.api.nvim_buf_clear_namespace(bufnr, ns_partial, 0, -1)
  end
  partials[bufnr] = nil
end

-- The provisional lines shown in bufnr, or nil (for tests and statuslines).
function M.partial(bufnr)
  return partials[bufnr]
end

function M.open(bufnr, edits, opts)
  M.clear_partial(bufnr)
  close(bufnr, 'an earlier preview was replaced; nothing of it was applied')
  local buf_lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local hunks = M.hunks_of(buf_lines, edits, opts.encoding or 'utf-16')
  if #hunks == 0 then return 0 end
  local keys = opts.keys or {}
  local hint = keys.accept and string.format(' — %s accept, %s reject, %s all, %s none',
    keys.accept or '-', keys.reject or '-', keys.accept_all or '-', keys.reject_all or '-')
    or ''
  for i, h in ipairs(hunks) do
    h.start_past_end = h.start >= #buf_lines
    draw(bufnr, h, h.start, i, #hunks, hint)
  end
  local p = { hunks = hunks, total = #hunks, accepted = 0, keys = keys,
              notify = opts.notify or function() end,
              tick = vim.api.nvim_buf_get_changedtick(bufnr) }
  previews[bufnr] = p
  map_keys(bufnr, keys)
  local group = vim.api.nvim_create_augroup('sonicboom_preview_' .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI' }, {
    group = group, buffer = bufnr, callback = function() current(bufnr) end })
  vim.api.nvim_create_autocmd('BufUnload', {
    group = group, buffer = bufnr, callback = function() close(bufnr) end })
  return #hunks
end

function M.active(bufnr)
  return previews[bufnr] ~= nil
end

return M
