-- Neovim 0.7 headless: attach `attnc lsp` to a buffer with the built-in client and check
-- diagnostics, hover, definition, completion, references, signature help and formatting.
-- Exits 0 on success, 1 on failure.
local attnc = assert(os.getenv('ATTNC'), 'ATTNC is not set')
local dir = assert(os.getenv('ATTNC_TEST_DIR'), 'ATTNC_TEST_DIR is not set')
local timeout = 15000

local function log(msg) io.stderr:write(msg .. '\n') end

local function write(path, lines)
  local f = assert(io.open(path, 'w'))
  f:write(table.concat(lines, '\n') .. '\n')
  f:close()
end

local function wait_for(what, cond)
  if not vim.wait(timeout, cond, 20) then error('timed out waiting for ' .. what) end
end

local function request(client, buf, method, params)
  local res, err = client.request_sync(method, params, timeout, buf)
  if not res then error(method .. ' failed: ' .. tostring(err)) end
  if res.err then error(method .. ' error: ' .. vim.inspect(res.err)) end
  return res.result
end

local function test()
  local file = dir .. '/main.attn'
  write(file, {
    'import std.masks;',
    '// héllo 𝄞: non-ASCII before the code',
    '/// Keys within `window` positions behind the query.',
    'mask sliding(window: int) = casual && q - kv < window;',
    'kernel k {',
    '  mask   =   sliding(64);',
    '}',
  })
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buf)
  local id = vim.lsp.start_client({ name = 'attnc', cmd = { attnc, 'lsp' }, root_dir = dir })
  assert(id, 'start_client failed')
  assert(vim.lsp.buf_attach_client(buf, id), 'buf_attach_client failed')
  local client = vim.lsp.get_client_by_id(id)
  wait_for('initialize', function() return client.initialized or client.server_capabilities ~= nil end)

  -- Diagnostics: the typo, with its message.
  wait_for('diagnostics', function() return #vim.diagnostic.get(buf) > 0 end)
  local d = vim.diagnostic.get(buf)[1]
  assert(d.message:find("unknown name 'casual'", 1, true), 'diagnostic: ' .. d.message)
  assert(d.lnum == 3 and d.col == 28, 'diagnostic at ' .. d.lnum .. ':' .. d.col)
  log('ok diagnostics: ' .. d.message)

  -- Fix it by typing (incremental sync, a line after non-ASCII text): the diagnostic goes away.
  vim.api.nvim_buf_set_text(buf, 3, 28, 3, 34, { 'causal' })
  wait_for('diagnostics to clear', function() return #vim.diagnostic.get(buf) == 0 end)
  log('ok diagnostics cleared after an edit')

  -- Hover on the use of `sliding` in the kernel: signature and doc comment.
  local pos = { textDocument = { uri = uri }, position = { line = 5, character = 14 } }
  local hover = request(client, buf, 'textDocument/hover', pos)
  local text = hover.contents.value
  assert(text:find('mask sliding(window: int)', 1, true), 'hover: ' .. text)
  assert(text:find('Keys within', 1, true), 'hover doc: ' .. text)
  log('ok hover')

  -- Definition of `causal`: the stdlib file.
  local def = request(client, buf, 'textDocument/definition',
    { textDocument = { uri = uri }, position = { line = 3, character = 30 } })
  local loc = def[1] or def
  local target = vim.uri_to_fname(loc.uri)
  assert(target:match('masks%.attn$'), 'definition: ' .. loc.uri)
  local lines = vim.fn.readfile(target)
  assert(lines[loc.range.start.line + 1]:find('causal', 1, true), 'definition line: ' .. lines[loc.range.start.line + 1])
  log('ok definition -> ' .. target)

  -- Completion inside the kernel block and in an expression.
  vim.api.nvim_buf_set_lines(buf, 6, 6, false, { '  ' })
  local items = request(client, buf, 'textDocument/completion',
    { textDocument = { uri = uri }, position = { line = 6, character = 2 } })
  items = items.items or items
  local labels = {}
  for _, it in ipairs(items) do labels[it.label] = true end
  assert(labels['dtype'] and labels['head_dim'] and labels['score'], 'kernel keys: ' .. vim.inspect(vim.tbl_keys(labels)))
  local expr = request(client, buf, 'textDocument/completion',
    { textDocument = { uri = uri }, position = { line = 3, character = 28 } })
  labels = {}
  for _, it in ipairs(expr.items or expr) do labels[it.label] = true end
  assert(labels['causal'] and labels['window'] and labels['kv'] and labels['tanh'], 'names: ' .. vim.inspect(vim.tbl_keys(labels)))
  log('ok completion')

  -- References of the parameter `window` (declaration and use) and signature help in the call.
  local refs = request(client, buf, 'textDocument/references',
    { textDocument = { uri = uri }, position = { line = 3, character = 15 }, context = { includeDeclaration = true } })
  assert(#refs == 2, 'references: ' .. vim.inspect(refs))
  local sig = request(client, buf, 'textDocument/signatureHelp',
    { textDocument = { uri = uri }, position = { line = 5, character = 21 } })
  assert(sig.signatures[1].label == 'mask sliding(window: int)', 'signature help: ' .. vim.inspect(sig))
  log('ok references and signature help')

  -- Formatting through the client: the kernel line is normalized.
  vim.lsp.buf.formatting_sync(nil, timeout)
  local formatted = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local found = false
  for _, l in ipairs(formatted) do
    if l == '  mask = sliding(64);' then found = true end
  end
  assert(found, 'formatting: ' .. table.concat(formatted, '\n'))
  log('ok formatting')

  vim.lsp.stop_client(id)
  wait_for('the server to stop', function() return client.is_stopped() end)
end

local ok, err = xpcall(test, debug.traceback)
if ok then
  log('neovim lsp test passed')
  vim.cmd('qa!')
else
  log('neovim lsp test FAILED: ' .. tostring(err))
  vim.cmd('cquit 1')
end
