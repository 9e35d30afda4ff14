// The Lua scripts behind the Redis ledger: each runs atomically in the server, so a commit's done mark, its
// state documents and the inbox removal land together or not at all, and two replicas never interleave
// inside one step. KEYS[1] is the bot's key prefix (the scripts reach every key under it; its hash tag puts
// them all in one slot, so in a Redis Cluster each script runs on the node that holds the bot); ARGV carries the rest.
import { ACCEPT_FUNCTION, IN_CHUNKS, INBOX_ENTRY, INBOX_TAKE_OVER, LIVE_HEAD } from './inbox-scripts.js';

/** Shared by the scripts: recognising a new update id sequence of the service (as the file journal does). */
const SEQUENCE = `
local p = KEYS[1]
${INBOX_ENTRY}
${LIVE_HEAD}
-- What seen() read once per script run (a batch of the polling leader asks it for each update): nothing but
-- forget_all changes these keys while one script runs.
local sequence_read = {}
local function forget_all()
  redis.call('DEL', p .. 'done', p .. 'done:ids')
  redis.call('SET', p .. 'confirmed', '0')
  sequence_read.confirmed = 0
  sequence_read.any_done = false
end
-- 'done' when this exact update was committed; otherwise 'new', or why the old ids were forgotten.
local function seen(id, fp, now, retention)
  local read = sequence_read
  if read.confirmed == nil then read.confirmed = tonumber(redis.call('GET', p .. 'confirmed') or '0') end
  local known = redis.call('HGET', p .. 'done', id)
  -- An update still in the inbox was stored before the leader confirmed past it (polling with replicas).
  if tonumber(id) < read.confirmed and redis.call('HEXISTS', p .. 'inbox', id) == 0 then forget_all() return 'below_confirmed' end
  if known and known ~= fp then forget_all() return 'other_message' end
  if known then return 'done' end
  if read.any_done == nil then read.any_done = redis.call('HLEN', p .. 'done') > 0 end
  if read.any_done then
    if read.last == nil then read.last = tonumber(redis.call('GET', p .. 'last') or '0') end
    if now - read.last > retention then forget_all() return 'quiet' end
  end
  return 'new'
end
`;

/** ARGV: id, fingerprint, now, retention → 'done' | 'new' | the reason the old sequence was forgotten. */
export const SEEN_SCRIPT = `${SEQUENCE}
return seen(ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]))`;

/**
 * Stores updates in the inbox, a batch in one step (see request-batches.ts). ARGV: now, retention, then polling
 * with replicas the leader's name and fencing token ('' '' otherwise), the entries' owner ('' for the leader's:
 * stored unclaimed, for any replica to claim), then for each update its id, fingerprint, JSON, chat key and how
 * many state documents to read with its intent (-1 for no intent; the documents are its KEYS, in turn) → for each
 * update {'stored'|'known'|'id_busy', sequence note, 1 when it heads its chat's queue (its turn is now: nothing
 * can be put before it) else 0, the id it follows in the queue ('' when first), 1 when its intent was taken here
 * else 0} one after the other, the intent's documents' values ('' when absent) after the five, or {'fenced'} when
 * this replica no longer holds the polling lease under that token (nothing stored). An owned entry is its
 * replica's until it commits or the replica dies; its id joins the end of its chat's queue, whose head is the one
 * update of that chat any replica may handle now (and the one a replica may claim, when unowned). An owned update
 * stored at the head of its queue with a document count is begun here, as BEGIN_LOAD_SCRIPT would begin it (the
 * entry is its owner's: not fenced), and its documents are read after its chat's last commit. The polling leader's
 * update with a document count that heads its chat's queue is kept: stored as the leader's own (not unclaimed) and
 * begun so.
 */
export const ACCEPT_BATCH_SCRIPT = `${SEQUENCE}
${IN_CHUNKS}
${ACCEPT_FUNCTION}
if ARGV[3] ~= '' and (redis.call('GET', p .. 'leader') ~= ARGV[3] or redis.call('GET', p .. 'leader:token') ~= ARGV[4]) then return {'fenced'} end
-- The batch's places in the inbox, drawn in one step when the first is needed (an update already known skips its own).
local count = (#ARGV - 5) / 5
local given
local function next_order()
  if not given then given = redis.call('INCRBY', p .. 'inbox:next', count) - count end
  given = given + 1
  return given
end
local answers, begun, k = {}, {}, 2
for i = 6, #ARGV, 5 do
  local n = tonumber(ARGV[i + 4])
  local owner = ARGV[5]
  -- The polling leader keeps an update it asks the intent of when it heads its chat's queue: its own, not unclaimed.
  if owner == '' and n >= 0 and not live_head(p .. 'chat:' .. ARGV[i + 3]) then owner = ARGV[3] end
  local answer = accept(ARGV[i], ARGV[i + 1], ARGV[i + 2], owner, ARGV[i + 3], tonumber(ARGV[1]), tonumber(ARGV[2]), next_order)
  local begins = n >= 0 and owner ~= '' and answer[1] == 'stored' and answer[3] == 1
  for j = 1, 4 do answers[#answers + 1] = answer[j] end
  answers[#answers + 1] = begins and 1 or 0
  if begins then
    begun[#begun + 1] = ARGV[i]
    begun[#begun + 1] = owner
    local values = n > 0 and redis.call('MGET', unpack(KEYS, k, k + n - 1)) or {}
    for j = 1, n do answers[#answers + 1] = values[j] or '' end
  end
  if n > 0 then k = k + n end
end
in_chunks('HSET', p .. 'begun', begun)
return answers`;

/**
 * ARGV: offset, then (polling with replicas) the leader's name and fencing token, or '' ''. Forgets every
 * done id below the offset → how many, or -1 when the lease is no longer this replica's under that token (a
 * paused ex-leader): nothing recorded.
 */
export const CONFIRM_SCRIPT = `
local p = KEYS[1]
${IN_CHUNKS}
if ARGV[2] ~= '' and (redis.call('GET', p .. 'leader') ~= ARGV[2] or redis.call('GET', p .. 'leader:token') ~= ARGV[3]) then return -1 end
local offset = tonumber(ARGV[1])
if offset <= tonumber(redis.call('GET', p .. 'confirmed') or '0') then return 0 end
redis.call('SET', p .. 'confirmed', ARGV[1])
local old = redis.call('ZRANGEBYSCORE', p .. 'done:ids', '-inf', '(' .. ARGV[1])
in_chunks('HDEL', p .. 'done', old)
redis.call('ZREMRANGEBYSCORE', p .. 'done:ids', '-inf', '(' .. ARGV[1])
return #old`;

/**
 * ARGV: owner. Takes over what replicas that are gone (no live lease) left behind: their begun-and-never-
 * committed ids (returned as in doubt, and forgotten: they are answered again now) and their inbox entries
 * (now owned by `owner`). → {in-doubt ids, pending update JSONs oldest first}.
 */
export const TAKE_OVER_SCRIPT = `
local p = KEYS[1]
${INBOX_ENTRY}
local me = ARGV[1]
local lives = {}
local function alive(owner)
  if owner == me then return true end
  if lives[owner] == nil then lives[owner] = redis.call('EXISTS', p .. 'replica:' .. owner) == 1 end
  return lives[owner]
end
local doubt = {}
local begun = redis.call('HGETALL', p .. 'begun')
for i = 1, #begun, 2 do
  if not alive(begun[i + 1]) then
    doubt[#doubt + 1] = begun[i]
    redis.call('HDEL', p .. 'begun', begun[i])
  end
end
local pending = {}
${INBOX_TAKE_OVER}
return {doubt, pending}`;

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
