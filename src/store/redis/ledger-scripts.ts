// The Lua scripts behind the Redis ledger: each runs atomically in the server, so a commit's done mark, its
// state documents and the inbox removal land together or not at all, and two replicas never interleave
// inside one step. KEYS[1] is the bot's key prefix (the scripts reach every key under it: one Redis server
// or primary, not a cluster); ARGV carries the rest.

/** Shared by the scripts: recognising a new update id sequence of the service (as the file journal does). */
const SEQUENCE = `
local p = KEYS[1]
local function forget_all()
  redis.call('DEL', p .. 'done', p .. 'done:ids')
  redis.call('SET', p .. 'confirmed', '0')
end
-- 'done' when this exact update was committed; otherwise 'new', or why the old ids were forgotten.
local function seen(id, fp, now, retention)
  local confirmed = tonumber(redis.call('GET', p .. 'confirmed') or '0')
  local known = redis.call('HGET', p .. 'done', id)
  if tonumber(id) < confirmed then forget_all() return 'below_confirmed' end
  if known and known ~= fp then forget_all() return 'other_message' end
  if known then return 'done' end
  if redis.call('HLEN', p .. 'done') > 0 then
    local last = tonumber(redis.call('GET', p .. 'last') or '0')
    if now - last > retention then forget_all() return 'quiet' end
  end
  return 'new'
end
`;

/** ARGV: id, fingerprint, now, retention → 'done' | 'new' | the reason the old sequence was forgotten. */
export const SEEN_SCRIPT = `${SEQUENCE}
return seen(ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]))`;

/**
 * ARGV: id, fingerprint, now, retention, update JSON, owner, chat key → {'stored'|'known'|'id_busy', sequence
 * note}. The inbox entry is owned by the replica that stored it until it commits or dies; its id joins the
 * end of its chat's queue, whose head is the one update of that chat any replica may handle now.
 */
export const ACCEPT_SCRIPT = `${SEQUENCE}
local id, fp = ARGV[1], ARGV[2]
local held = redis.call('HGET', p .. 'inbox:fp', id)
if held then
  if held == fp then return {'known', ''} end
  return {'id_busy', ''}
end
local state = seen(id, fp, tonumber(ARGV[3]), tonumber(ARGV[4]))
if state == 'done' then return {'known', ''} end
redis.call('HSET', p .. 'inbox', id, ARGV[5])
redis.call('HSET', p .. 'inbox:fp', id, fp)
redis.call('HSET', p .. 'inbox:owner', id, ARGV[6])
redis.call('ZADD', p .. 'inbox:order', redis.call('INCR', p .. 'inbox:seq'), id)
redis.call('HSET', p .. 'inbox:chat', id, ARGV[7])
redis.call('RPUSH', p .. 'chat:' .. ARGV[7], id)
if state == 'new' then state = '' end
return {'stored', state}`;

/**
 * KEYS: prefix, then the state document keys the commit read. ARGV: id ('' for state of no update: a flow's
 * timeout), fingerprint, now, capacity, state time-to-live in ms ('' for none), then for each document the
 * value it was read as ('' when absent) and the value to write ('' to delete).
 * → 'ok', or 'conflict' when a document changed since it was read (the caller reads again and retries).
 * Flow documents are also listed in the bot's set of flows (for the timeout timers).
 */
export const COMMIT_SCRIPT = `
local p = KEYS[1]
local n = #KEYS - 1
local ttl = ARGV[5]
for i = 1, n do
  local current = redis.call('GET', KEYS[i + 1]) or ''
  if current ~= ARGV[5 + i] then return 'conflict' end
end
for i = 1, n do
  local key, value = KEYS[i + 1], ARGV[5 + n + i]
  local document = string.sub(key, #p + 7)
  if value == '' then redis.call('DEL', key)
  elseif ttl ~= '' then redis.call('SET', key, value, 'PX', ttl)
  else redis.call('SET', key, value) end
  if string.sub(document, 1, 5) == 'flow:' then
    if value == '' then redis.call('SREM', p .. 'flows', document) else redis.call('SADD', p .. 'flows', document) end
  end
end
local id = ARGV[1]
if id == '' then return 'ok' end
redis.call('HSET', p .. 'done', id, ARGV[2])
redis.call('ZADD', p .. 'done:ids', id, id)
redis.call('SET', p .. 'last', ARGV[3])
redis.call('HDEL', p .. 'begun', id)
if redis.call('HEXISTS', p .. 'inbox', id) == 1 then
  local chat = redis.call('HGET', p .. 'inbox:chat', id)
  if chat then redis.call('LREM', p .. 'chat:' .. chat, 1, id) end
  redis.call('HDEL', p .. 'inbox', id)
  redis.call('HDEL', p .. 'inbox:fp', id)
  redis.call('HDEL', p .. 'inbox:owner', id)
  redis.call('HDEL', p .. 'inbox:chat', id)
  redis.call('ZREM', p .. 'inbox:order', id)
end
-- Beyond twice the capacity, the lowest ids go (at worst a very old redelivery is answered again).
local capacity = tonumber(ARGV[4])
local size = redis.call('ZCARD', p .. 'done:ids')
if size > 2 * capacity then
  local old = redis.call('ZRANGE', p .. 'done:ids', 0, size - capacity - 1)
  for i = 1, #old do redis.call('HDEL', p .. 'done', old[i]) end
  redis.call('ZREMRANGEBYRANK', p .. 'done:ids', 0, size - capacity - 1)
end
return 'ok'`;

/** ARGV: offset. Forgets every done id below it. */
export const CONFIRM_SCRIPT = `
local p = KEYS[1]
local offset = tonumber(ARGV[1])
if offset <= tonumber(redis.call('GET', p .. 'confirmed') or '0') then return 0 end
redis.call('SET', p .. 'confirmed', ARGV[1])
local old = redis.call('ZRANGEBYSCORE', p .. 'done:ids', '-inf', '(' .. ARGV[1])
for i = 1, #old do redis.call('HDEL', p .. 'done', old[i]) end
redis.call('ZREMRANGEBYSCORE', p .. 'done:ids', '-inf', '(' .. ARGV[1])
return #old`;

/**
 * ARGV: owner. Takes over what replicas that are gone (no live lease) left behind: their begun-and-never-
 * committed ids (returned as in doubt, and forgotten: they are answered again now) and their inbox entries
 * (now owned by `owner`). → {in-doubt ids, pending update JSONs oldest first}.
 */
export const TAKE_OVER_SCRIPT = `
local p = KEYS[1]
local me = ARGV[1]
local function alive(owner) return owner == me or redis.call('EXISTS', p .. 'replica:' .. owner) == 1 end
local doubt = {}
local begun = redis.call('HGETALL', p .. 'begun')
for i = 1, #begun, 2 do
  if not alive(begun[i + 1]) then
    doubt[#doubt + 1] = begun[i]
    redis.call('HDEL', p .. 'begun', begun[i])
  end
end
local pending = {}
local ids = redis.call('ZRANGE', p .. 'inbox:order', 0, -1)
for i = 1, #ids do
  local owner = redis.call('HGET', p .. 'inbox:owner', ids[i])
  if not owner or owner == me or not alive(owner) then
    redis.call('HSET', p .. 'inbox:owner', ids[i], me)
    pending[#pending + 1] = redis.call('HGET', p .. 'inbox', ids[i])
  end
end
return {doubt, pending}`;

/**
 * ARGV: id, owner → 'ok', or 'fenced' when the update is in the inbox under another replica's name (this one
 * was paused past its lease and its work taken over): no side effect may start here any more.
 */
export const BEGIN_SCRIPT = `
local p = KEYS[1]
local owner = redis.call('HGET', p .. 'inbox:owner', ARGV[1])
if owner and owner ~= ARGV[2] then return 'fenced' end
redis.call('HSET', p .. 'begun', ARGV[1], ARGV[2])
return 'ok'`;

/**
 * ARGV: chat key, id → 'go' when the update may be handled now (it heads its chat's queue, or is not in it:
 * polling, or already committed), 'wait' while an earlier update of the chat is still in some replica's hands.
 * Heads whose update left the inbox (committed) are dropped on the way.
 */
export const TURN_SCRIPT = `
local p = KEYS[1]
local queue = p .. 'chat:' .. ARGV[1]
for i = 1, 1000 do
  local head = redis.call('LINDEX', queue, 0)
  if not head or head == ARGV[2] then return 'go' end
  if redis.call('HEXISTS', p .. 'inbox', head) == 1 then
    if not redis.call('LPOS', queue, ARGV[2]) then return 'go' end
    return 'wait'
  end
  redis.call('LPOP', queue)
end
return 'wait'`;
