// The Lua of an update's two steps after it is stored: its begin mark with its state read, and its commit. Each
// takes a batch (the updates of many chats that reached the step at about the same time, see ledger-steps.ts) and
// answers each update on its own: one update's conflict or fencing leaves the others' steps as they would be
// alone. KEYS[1] is the bot's key prefix, then each update's state documents in turn.
import { OUTBOX_LIB } from './outbox-scripts.js';
import { IN_CHUNKS, INBOX_COMMIT, INBOX_ENTRY, LIVE_HEAD } from './inbox-scripts.js';

/**
 * ARGV: owner, then for each update its id and how many documents it reads (its KEYS, in turn) → for each update
 * 'ok' and its documents' values ('' when absent), or 'fenced' and as many '' when the update is in the inbox under
 * another replica's name (this one was paused past its lease and its work taken over): no begin mark then, and no
 * side effect may start here. An update not in the inbox (plain polling) is begun as well.
 */
export const BEGIN_LOAD_SCRIPT = `
local p = KEYS[1]
${INBOX_ENTRY}
${IN_CHUNKS}
local owner = ARGV[1]
local ids = {}
for i = 2, #ARGV, 2 do ids[#ids + 1] = ARGV[i] end
local entries = hmget_all(p .. 'inbox', ids)
local answer, begun = {}, {}
local k = 2
for i = 2, #ARGV, 2 do
  local id, n = ARGV[i], tonumber(ARGV[i + 1])
  local entry = entries[i / 2]
  local fenced = false
  if entry then
    local _, holder = entry_head(entry)
    fenced = holder ~= owner
  end
  if fenced then answer[#answer + 1] = 'fenced' else
    answer[#answer + 1] = 'ok'
    begun[#begun + 1] = id
    begun[#begun + 1] = owner
  end
  local values = (n > 0 and not fenced) and redis.call('MGET', unpack(KEYS, k, k + n - 1)) or {}
  for j = 1, n do answer[#answer + 1] = values[j] or '' end
  k = k + n
end
in_chunks('HSET', p .. 'begun', begun)
return answer`;

/**
 * ARGV: now, capacity, state time-to-live in ms ('' for none), then for each commit its update id ('' for state
 * of no update: a flow's timeout), fingerprint, how many documents it writes (its KEYS, in turn), the value each
 * was read as ('' when absent), the value to write to each ('' to delete), and its outbox changes ('' for none;
 * see outbox-scripts.ts) → for each commit 'ok', or 'conflict' when one of its documents changed since it was
 * read (nothing of it written: the caller reads again and retries). A commit's done mark, state documents, effects
 * and inbox removal land together. Flow documents are also listed in the bot's set of flows (for the timeout timers).
 */
export const COMMIT_SCRIPT = `${OUTBOX_LIB}
local p = KEYS[1]
${INBOX_ENTRY}
${LIVE_HEAD}
${IN_CHUNKS}
local now, capacity, ttl = ARGV[1], tonumber(ARGV[2]), ARGV[3]
-- One commit: its documents are KEYS[k .. k+n-1], read as ARGV[a .. a+n-1], to be ARGV[a+n .. a+2n-1]; ARGV[a+2n]
-- its outbox changes. → 'ok', 'conflict', or 'committed' (an update's done mark written now).
-- entry: the update's inbox entry (false when there is none: plain polling mode, or it is committed, which
-- removes it), read for the whole batch at the start.
local function commit(id, fp, k, n, a, entry)
  -- Already committed (a retry after the answer to the first commit was lost, e.g. in a Redis restart): the chat
  -- may have moved on since, so its changes must not be applied a second time over newer state.
  if id ~= '' and not entry and redis.call('HGET', p .. 'done', id) == fp then return 'ok' end
  for i = 0, n - 1 do
    if (redis.call('GET', KEYS[k + i]) or '') ~= ARGV[a + i] then return 'conflict' end
  end
  for i = 0, n - 1 do
    local key, value = KEYS[k + i], ARGV[a + n + i]
    local document = string.sub(key, #p + 7)
    if value == '' then redis.call('DEL', key)
    elseif ttl ~= '' then redis.call('SET', key, value, 'PX', ttl)
    else redis.call('SET', key, value) end
    if string.sub(document, 1, 5) == 'flow:' then
      if value == '' then redis.call('SREM', p .. 'flows', document) else redis.call('SADD', p .. 'flows', document) end
    end
  end
  fx_apply(p, ARGV[a + 2 * n] or '')
  if id == '' then return 'ok' end
  -- Each commit's done mark and inbox removal are written with it, not gathered for the batch's end: should a
  -- later commit of the batch fail half-way (a write refused when Redis is out of memory), the ones before it are
  -- whole, and their retry finds them done instead of applying their changes a second time.
  redis.call('HSET', p .. 'done', id, fp)
  redis.call('ZADD', p .. 'done:ids', id, id)
  redis.call('HDEL', p .. 'begun', id)
  ${INBOX_COMMIT}
  -- Beyond twice the capacity, the lowest ids go (at worst a very old redelivery is answered again). Counted at
  -- every 16th id only: the bound is loose by a few ids, and most commits spare the count.
  local size = tonumber(id) % 16 == 0 and redis.call('ZCARD', p .. 'done:ids') or 0
  if size > 2 * capacity then
    in_chunks('HDEL', p .. 'done', redis.call('ZRANGE', p .. 'done:ids', 0, size - capacity - 1))
    redis.call('ZREMRANGEBYRANK', p .. 'done:ids', 0, size - capacity - 1)
  end
  return 'committed'
end
-- Every update's inbox entry, read at once.
local ids, at = {}, 4
while at <= #ARGV do
  if ARGV[at] ~= '' then ids[#ids + 1] = ARGV[at] end
  at = at + 4 + 2 * tonumber(ARGV[at + 2])
end
local entry_of = {}
for i, entry in ipairs(hmget_all(p .. 'inbox', ids)) do entry_of[ids[i]] = entry end
local answers, any_done = {}, false
local k, a = 2, 4
while a <= #ARGV do
  local n = tonumber(ARGV[a + 2])
  local answer = commit(ARGV[a], ARGV[a + 1], k, n, a + 3, entry_of[ARGV[a]] or false)
  if answer == 'committed' then
    any_done = true
    answer = 'ok'
  end
  answers[#answers + 1] = answer
  k = k + n
  a = a + 4 + 2 * n
end
-- When the last update was committed: a long quiet spell means the service's update ids may start over.
if any_done then redis.call('SET', p .. 'last', now) end
return answers`;
