// The Lua scripts behind the Redis ledger: each runs atomically in the server, so a commit's done mark, its
// state documents and the inbox removal land together or not at all, and two replicas never interleave
// inside one step. KEYS[1] is the bot's key prefix (the scripts reach every key under it; its hash tag puts
// them all in one slot, so in a Redis Cluster each script runs on the node that holds the bot); ARGV carries the rest.
import { OUTBOX_LIB } from './outbox-scripts.js';

/**
 * After `local p`: the first update of a chat's queue still in the inbox (committed ones at its head are dropped on
 * the way), or nil. Polling with replicas gives out only these (`inbox:unclaimed`): the rest of a busy chat waits in
 * the store, not in the replicas' hands, so other chats' updates are claimed meanwhile.
 */
const LIVE_HEAD = `
local function live_head(queue)
  for i = 1, 1000 do
    local head = redis.call('LINDEX', queue, 0)
    if not head or redis.call('HEXISTS', p .. 'inbox', head) == 1 then return head end
    redis.call('LPOP', queue)
  end
  return redis.call('LINDEX', queue, 0)
end
`;

/** Shared by the scripts: recognising a new update id sequence of the service (as the file journal does). */
const SEQUENCE = `
local p = KEYS[1]
${LIVE_HEAD}
local function forget_all()
  redis.call('DEL', p .. 'done', p .. 'done:ids')
  redis.call('SET', p .. 'confirmed', '0')
end
-- 'done' when this exact update was committed; otherwise 'new', or why the old ids were forgotten.
local function seen(id, fp, now, retention)
  local confirmed = tonumber(redis.call('GET', p .. 'confirmed') or '0')
  local known = redis.call('HGET', p .. 'done', id)
  -- An update still in the inbox was stored before the leader confirmed past it (polling with replicas).
  if tonumber(id) < confirmed and redis.call('HEXISTS', p .. 'inbox', id) == 0 then forget_all() return 'below_confirmed' end
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

/** Stores ARGV[1..7] of an accept (after SEQUENCE); see {@link ACCEPT_SCRIPT}. An entry with no owner ('') waits in `inbox:unclaimed`. */
const ACCEPT_BODY = `
local id, fp = ARGV[1], ARGV[2]
local held = redis.call('HGET', p .. 'inbox:fp', id)
if held then
  if held == fp then return {'known', ''} end
  return {'id_busy', ''}
end
local state = seen(id, fp, tonumber(ARGV[3]), tonumber(ARGV[4]))
if state == 'done' then return {'known', ''} end
local seq = redis.call('INCR', p .. 'inbox:seq')
redis.call('HSET', p .. 'inbox', id, ARGV[5])
redis.call('HSET', p .. 'inbox:fp', id, fp)
redis.call('HSET', p .. 'inbox:owner', id, ARGV[6])
redis.call('ZADD', p .. 'inbox:order', seq, id)
redis.call('HSET', p .. 'inbox:chat', id, ARGV[7])
local first = not live_head(p .. 'chat:' .. ARGV[7])
-- Unclaimed and first of its chat: claimable now; otherwise it becomes so when the update before it commits.
if ARGV[6] == '' and first then redis.call('ZADD', p .. 'inbox:unclaimed', seq, id) end
redis.call('RPUSH', p .. 'chat:' .. ARGV[7], id)
if state == 'new' then state = '' end
return {'stored', state, first and 1 or 0}`;

/**
 * ARGV: id, fingerprint, now, retention, update JSON, owner, chat key → {'stored'|'known'|'id_busy', sequence
 * note, 1 when it heads its chat's queue (its turn is now: nothing can be put before it) else 0}. The inbox entry is owned by the replica that stored it until it commits or dies; its id joins the
 * end of its chat's queue, whose head is the one update of that chat any replica may handle now (and the one a
 * replica may claim, when unowned).
 */
export const ACCEPT_SCRIPT = `${SEQUENCE}
${ACCEPT_BODY}`;

/**
 * Polling with replicas: the leader stores what it fetched for any replica to claim. ARGV: as {@link
 * ACCEPT_SCRIPT} with owner '' (unclaimed), then the leader's name and fencing token → as ACCEPT_SCRIPT, or
 * {'fenced', ''} when this replica no longer holds the polling lease under that token (nothing stored).
 */
export const POLL_ACCEPT_SCRIPT = `${SEQUENCE}
if redis.call('GET', p .. 'leader') ~= ARGV[8] or redis.call('GET', p .. 'leader:token') ~= ARGV[9] then return {'fenced', ''} end
${ACCEPT_BODY}`;

/**
 * KEYS: prefix, then the state document keys the commit read. ARGV: id ('' for state of no update: a flow's
 * timeout), fingerprint, now, capacity, state time-to-live in ms ('' for none), then for each document the
 * value it was read as ('' when absent) and the value to write ('' to delete), then the record's outbox
 * changes ('' for none; see outbox-scripts.ts).
 * → 'ok', or 'conflict' when a document changed since it was read (the caller reads again and retries).
 * Flow documents are also listed in the bot's set of flows (for the timeout timers).
 */
export const COMMIT_SCRIPT = `${OUTBOX_LIB}
local p = KEYS[1]
${LIVE_HEAD}
-- Already committed (a retry after the answer to the first commit was lost, e.g. in a Redis restart): the chat
-- may have moved on since, so its changes must not be applied a second time over newer state.
if ARGV[1] ~= '' and redis.call('HGET', p .. 'done', ARGV[1]) == ARGV[2] then return 'ok' end
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
fx_apply(p, ARGV[6 + 2 * n] or '')
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
  redis.call('ZREM', p .. 'inbox:unclaimed', id)
  -- The chat's next update, stored unclaimed, may be claimed now (polling with replicas).
  local following = chat and live_head(p .. 'chat:' .. chat)
  if following and redis.call('HGET', p .. 'inbox:owner', following) == '' then
    redis.call('ZADD', p .. 'inbox:unclaimed', redis.call('ZSCORE', p .. 'inbox:order', following), following)
  end
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

/**
 * ARGV: offset, then (polling with replicas) the leader's name and fencing token, or '' ''. Forgets every
 * done id below the offset → how many, or -1 when the lease is no longer this replica's under that token (a
 * paused ex-leader): nothing recorded.
 */
export const CONFIRM_SCRIPT = `
local p = KEYS[1]
if ARGV[2] ~= '' and (redis.call('GET', p .. 'leader') ~= ARGV[2] or redis.call('GET', p .. 'leader:token') ~= ARGV[3]) then return -1 end
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
  -- Unclaimed entries ('') are for CLAIM_SCRIPT: a few at a time, spread over the replicas.
  if not owner or (owner ~= '' and (owner == me or not alive(owner))) then
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
 * polling, or already committed), or the id of the earlier update of the chat it waits for (still in some
 * replica's hands; '' when the queue is too long to tell). Heads whose update left the inbox (committed) are
 * dropped on the way.
 */
export const TURN_SCRIPT = `
local p = KEYS[1]
local queue = p .. 'chat:' .. ARGV[1]
for i = 1, 1000 do
  local head = redis.call('LINDEX', queue, 0)
  if not head or head == ARGV[2] then return 'go' end
  if redis.call('HEXISTS', p .. 'inbox', head) == 1 then
    if not redis.call('LPOS', queue, ARGV[2]) then return 'go' end
    return head
  end
  redis.call('LPOP', queue)
end
return ''`;

/**
 * ARGV: owner, limit → the update JSONs of up to `limit` unclaimed inbox entries, oldest first, now owned by
 * `owner`: each the first of its chat in the inbox (see ACCEPT_BODY and COMMIT_SCRIPT).
 */
export const CLAIM_SCRIPT = `
local p = KEYS[1]
local ids = redis.call('ZRANGE', p .. 'inbox:unclaimed', 0, tonumber(ARGV[2]) - 1)
local claimed = {}
for i = 1, #ids do
  redis.call('ZREM', p .. 'inbox:unclaimed', ids[i])
  local json = redis.call('HGET', p .. 'inbox', ids[i])
  if json then
    redis.call('HSET', p .. 'inbox:owner', ids[i], ARGV[1])
    claimed[#claimed + 1] = json
  end
end
return claimed`;

/**
 * The polling lease. ARGV: owner, lease ms → {'acquired', token} when it was free (the token is a new fencing
 * number, higher than any before), or {'held', holder}.
 */
export const ACQUIRE_LEAD_SCRIPT = `
local p = KEYS[1]
local holder = redis.call('GET', p .. 'leader')
if holder then return {'held', holder} end
local token = tostring(redis.call('INCR', p .. 'leader:fence'))
redis.call('SET', p .. 'leader', ARGV[1], 'PX', ARGV[2])
redis.call('SET', p .. 'leader:token', token)
return {'acquired', token}`;

/** ARGV: owner, token, lease ms → 1 and the lease renewed while it is still this owner's under this token; else 0. */
export const RENEW_LEAD_SCRIPT = `
local p = KEYS[1]
if redis.call('GET', p .. 'leader') ~= ARGV[1] or redis.call('GET', p .. 'leader:token') ~= ARGV[2] then return 0 end
redis.call('PEXPIRE', p .. 'leader', ARGV[3])
return 1`;

/** ARGV: owner, token → gives the lease up (a clean stop: another replica polls at once). */
export const RESIGN_LEAD_SCRIPT = `
local p = KEYS[1]
if redis.call('GET', p .. 'leader') == ARGV[1] and redis.call('GET', p .. 'leader:token') == ARGV[2] then redis.call('DEL', p .. 'leader') end
return 1`;
