// The Lua of the Redis ledger's shared inbox: one hash field per update stored and not yet committed, which
// holds all of the entry (its order, owner, chat, fingerprint and JSON), so that storing one is one write and
// committing it one delete; beside it, each chat's queue (a list of ids, its head the one update of the chat any
// replica may handle now) and, polling with replicas, the entries waiting to be claimed (a sorted set by order).
// Keys under the prefix p: inbox (hash id → entry), inbox:next (the order counter), chat:<key> (list),
// inbox:unclaimed (sorted set). Earlier versions kept an entry over five hashes and sets: see LEGACY_INBOX_SCRIPT.

/**
 * After `local p`: reading and writing an inbox entry, `order \n owner \n chat \n fingerprint \n JSON` (the
 * owner '' while unclaimed; no field but the JSON holds a newline, and JSON.stringify never writes one).
 */
export const INBOX_ENTRY = `
local function entry_of(order, owner, chat, fp, json)
  return order .. '\\n' .. owner .. '\\n' .. chat .. '\\n' .. fp .. '\\n' .. json
end
-- order, owner, chat, fingerprint, and the position of the last separator (the JSON starts after it).
local function entry_head(entry)
  local a = string.find(entry, '\\n', 1, true)
  local b = a and string.find(entry, '\\n', a + 1, true)
  local c = b and string.find(entry, '\\n', b + 1, true)
  local d = c and string.find(entry, '\\n', c + 1, true)
  if not d then return '0', '', '', '', 0 end
  return string.sub(entry, 1, a - 1), string.sub(entry, a + 1, b - 1), string.sub(entry, b + 1, c - 1), string.sub(entry, c + 1, d - 1), d
end
local function entry_json(entry)
  local _, _, _, _, d = entry_head(entry)
  return string.sub(entry, d + 1)
end
local function with_owner(entry, owner)
  local order, _, chat, fp, d = entry_head(entry)
  return entry_of(order, owner, chat, fp, string.sub(entry, d + 1))
end
`;

/**
 * After `local p`: the first update of a chat's queue still in the inbox (committed ones at its head are dropped on
 * the way), or nil. Polling with replicas gives out only these (`inbox:unclaimed`): the rest of a busy chat waits in
 * the store, not in the replicas' hands, so other chats' updates are claimed meanwhile.
 */
export const LIVE_HEAD = `
local function live_head(queue)
  for i = 1, 1000 do
    local head = redis.call('LINDEX', queue, 0)
    if not head or redis.call('HEXISTS', p .. 'inbox', head) == 1 then return head end
    redis.call('LPOP', queue)
  end
  return redis.call('LINDEX', queue, 0)
end
`;

/**
 * `in_chunks(command, key, values)`: one command over many fields or members (HDEL, HSET's field-value pairs,
 * ZREM…) instead of one call each, a few hundred at a time (Lua's unpack has a limit). `hmget_all(key, fields)`:
 * the fields' values (false where absent) the same way.
 */
export const IN_CHUNKS = `
local function in_chunks(command, key, values, step)
  step = step or 500
  for i = 1, #values, step do
    redis.call(command, key, unpack(values, i, math.min(i + step - 1, #values)))
  end
end
local function hmget_all(key, fields)
  local out = {}
  for i = 1, #fields, 500 do
    local part = redis.call('HMGET', key, unpack(fields, i, math.min(i + 499, #fields)))
    for j = 1, #part do out[#out + 1] = part[j] end
  end
  return out
end
`;

/**
 * After the ledger's SEQUENCE (which gives `seen`): `accept(id, fp, json, owner, chat, now, retention,
 * next_order)` stores one update, next_order() giving its place in the inbox → {'stored'|'known'|'id_busy',
 * sequence note, 1 when it heads its chat's queue else 0, the id it follows in the queue ('' when first)}. An
 * entry with no owner ('') waits in `inbox:unclaimed` once it heads its chat's queue.
 */
export const ACCEPT_FUNCTION = `
local function accept(id, fp, json, owner, chat, now, retention, next_order)
  local held = redis.call('HGET', p .. 'inbox', id)
  if held then
    local _, _, _, held_fp = entry_head(held)
    if held_fp == fp then return {'known', '', 0, ''} end
    return {'id_busy', '', 0, ''}
  end
  local state = seen(id, fp, now, retention)
  if state == 'done' then return {'known', '', 0, ''} end
  local order = next_order()
  local queue = p .. 'chat:' .. chat
  local first = not live_head(queue)
  -- The update it follows in its chat's queue: when that one commits on this replica, this one's turn is now.
  local after = first and '' or (redis.call('LINDEX', queue, -1) or '')
  redis.call('HSET', p .. 'inbox', id, entry_of(order, owner, chat, fp, json))
  -- Unclaimed and first of its chat: claimable now; otherwise it becomes so when the update before it commits.
  if owner == '' and first then redis.call('ZADD', p .. 'inbox:unclaimed', order, id) end
  redis.call('RPUSH', queue, id)
  if state == 'new' then state = '' end
  return {'stored', state, first and 1 or 0, after}
end
`;

/**
 * Inside the commit script, `id` committed (`entry`: its inbox entry, read at the script's start, or false): the
 * entry leaves the inbox and its chat's queue, and the chat's next update, when it waits unclaimed (polling with
 * replicas), may be claimed now.
 */
export const INBOX_COMMIT = `
if entry then
  local _, owner, chat = entry_head(entry)
  local queue = p .. 'chat:' .. chat
  redis.call('LREM', queue, 1, id)
  redis.call('HDEL', p .. 'inbox', id)
  if owner == '' then redis.call('ZREM', p .. 'inbox:unclaimed', id) end
  local following = live_head(queue)
  if following then
    local order, next_owner = entry_head(redis.call('HGET', p .. 'inbox', following))
    if next_owner == '' then redis.call('ZADD', p .. 'inbox:unclaimed', order, following) end
  end
end`;

/**
 * ARGV: owner, limit → {the update JSONs of up to `limit` unclaimed inbox entries, oldest first, now owned by
 * `owner`: each the first of its chat in the inbox (see ACCEPT_FUNCTION and INBOX_COMMIT); how many entries the
 * inbox holds after the claim, claimed or not}.
 */
export const CLAIM_SCRIPT = `
local p = KEYS[1]
${INBOX_ENTRY}
${IN_CHUNKS}
local ids = redis.call('ZRANGE', p .. 'inbox:unclaimed', 0, tonumber(ARGV[2]) - 1)
if #ids == 0 then return {{}, redis.call('HLEN', p .. 'inbox')} end
in_chunks('ZREM', p .. 'inbox:unclaimed', ids)
local claimed, owned = {}, {}
local entries = hmget_all(p .. 'inbox', ids)
for i = 1, #ids do
  if entries[i] then
    owned[#owned + 1] = ids[i]
    owned[#owned + 1] = with_owner(entries[i], ARGV[1])
    claimed[#claimed + 1] = entry_json(entries[i])
  end
end
in_chunks('HSET', p .. 'inbox', owned)
return {claimed, redis.call('HLEN', p .. 'inbox')}`;

/**
 * Inside the take-over script (`me`, `alive`, `pending`): the inbox entries of replicas that are gone become
 * `me`'s, their JSONs appended to `pending` oldest first. Unclaimed entries ('') are for CLAIM_SCRIPT.
 */
export const INBOX_TAKE_OVER = `
local all = redis.call('HGETALL', p .. 'inbox')
local mine = {}
for i = 1, #all, 2 do
  local order, owner, _, _, d = entry_head(all[i + 1])
  if owner ~= '' and (owner == me or not alive(owner)) then
    if owner ~= me then redis.call('HSET', p .. 'inbox', all[i], with_owner(all[i + 1], me)) end
    mine[#mine + 1] = {tonumber(order), string.sub(all[i + 1], d + 1)}
  end
end
table.sort(mine, function(a, b) return a[1] < b[1] end)
for i = 1, #mine do pending[#pending + 1] = mine[i][2] end`;

/**
 * The inbox of an earlier version (the JSON in `inbox`, its fingerprint, owner, chat and order in hashes and
 * a sorted set of their own, the counter in `inbox:seq`) folded into the entries above, once, atomically.
 * → how many entries were folded (0 when there was no such inbox).
 */
export const LEGACY_INBOX_SCRIPT = `
local p = KEYS[1]
${INBOX_ENTRY}
if redis.call('EXISTS', p .. 'inbox:seq') == 0 then return 0 end
local all = redis.call('HGETALL', p .. 'inbox')
local folded = 0
for i = 1, #all, 2 do
  local id, json = all[i], all[i + 1]
  if string.sub(json, 1, 1) == '{' then
    local order = redis.call('ZSCORE', p .. 'inbox:order', id) or '0'
    local owner = redis.call('HGET', p .. 'inbox:owner', id) or ''
    local chat = redis.call('HGET', p .. 'inbox:chat', id) or ('update:' .. id)
    local fp = redis.call('HGET', p .. 'inbox:fp', id) or ''
    redis.call('HSET', p .. 'inbox', id, entry_of(order, owner, chat, fp, json))
    folded = folded + 1
  end
end
local counted = tonumber(redis.call('GET', p .. 'inbox:seq') or '0')
if counted > tonumber(redis.call('GET', p .. 'inbox:next') or '0') then redis.call('SET', p .. 'inbox:next', counted) end
redis.call('DEL', p .. 'inbox:seq', p .. 'inbox:fp', p .. 'inbox:owner', p .. 'inbox:chat', p .. 'inbox:order')
return folded`;
