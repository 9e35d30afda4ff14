// The Lua scripts of the outbox in Redis. Keys, all under the bot's prefix (KEYS[1], as for the ledger):
//   fx                 hash  id → the effect's JSON as the pipeline stored it
//   fx:at              hash  id → when it is due now (ms; a retry moves it)
//   fx:meta            hash  id → {k: order key, m: its member in fx:key:<k>, r: replace key, u: user id} (strings)
//   fx:due             zset  unclaimed effects by fx:at (member m: ties go in storing order)
//   fx:key:<k>         zset  an order key's unfinished effects by first due time, then storing order (member m)
//   fx:claimed         hash  id → the replica holding it (its `replica:<owner>` lease key says it lives)
//   fx:attempts        hash  id → attempts begun
//   fx:begun           hash  id → 1 while an attempt is begun and not finished
//   fx:replace:<r>     set   ids under a replace key;  fx:user:<u>  set  ids concerning a user;  fx:seq  counter

/** Shared by the scripts that add and drop effects. */
export const OUTBOX_LIB = `
local function fx_drop(p, id)
  local raw = redis.call('HGET', p .. 'fx:meta', id)
  if not raw then return end
  local meta = cjson.decode(raw)
  redis.call('HDEL', p .. 'fx', id)
  redis.call('HDEL', p .. 'fx:at', id)
  redis.call('HDEL', p .. 'fx:meta', id)
  redis.call('HDEL', p .. 'fx:claimed', id)
  redis.call('HDEL', p .. 'fx:attempts', id)
  redis.call('HDEL', p .. 'fx:begun', id)
  redis.call('ZREM', p .. 'fx:due', meta.m)
  if meta.k then redis.call('ZREM', p .. 'fx:key:' .. meta.k, meta.m) end
  if meta.r then redis.call('SREM', p .. 'fx:replace:' .. meta.r, id) end
  if meta.u then redis.call('SREM', p .. 'fx:user:' .. meta.u, id) end
end
-- The member of an effect in fx:due and fx:key:<k>: its storing order, then its id.
local function fx_member(p, id) return cjson.decode(redis.call('HGET', p .. 'fx:meta', id)).m end
local function fx_id(member) return string.sub(member, 18) end
local function fx_cancel(p, key)
  local ids = redis.call('SMEMBERS', p .. 'fx:replace:' .. key)
  for i = 1, #ids do fx_drop(p, ids[i]) end
end
-- outbox: '' or {e = [{id, json, at, k?, r?, u?}], x = [replace keys]}
local function fx_apply(p, outbox)
  if outbox == '' then return end
  local changes = cjson.decode(outbox)
  for _, key in ipairs(changes.x or {}) do fx_cancel(p, key) end
  for _, e in ipairs(changes.e or {}) do
    if redis.call('HEXISTS', p .. 'fx', e.id) == 0 then
      if e.r then fx_cancel(p, e.r) end
      local member = string.format('%016d', redis.call('INCR', p .. 'fx:seq')) .. ':' .. e.id
      redis.call('HSET', p .. 'fx', e.id, e.json)
      redis.call('HSET', p .. 'fx:at', e.id, e.at)
      redis.call('HSET', p .. 'fx:meta', e.id, cjson.encode({k = e.k, m = member, r = e.r, u = e.u}))
      redis.call('ZADD', p .. 'fx:due', e.at, member)
      if e.k then redis.call('ZADD', p .. 'fx:key:' .. e.k, e.at, member) end
      if e.r then redis.call('SADD', p .. 'fx:replace:' .. e.r, e.id) end
      if e.u then redis.call('SADD', p .. 'fx:user:' .. e.u, e.id) end
    end
  end
end
`;

/**
 * ARGV: owner, now, limit. Claims of replicas that are gone come back first; then up to `limit` unclaimed
 * effects due by `now`, oldest first, each the first unfinished effect of its order key, become `owner`'s.
 * → {{effect JSON, due at, attempts, begun (0/1)}, …}.
 */
export const CLAIM_EFFECTS_SCRIPT = `${OUTBOX_LIB}
local p = KEYS[1]
local me, now, limit = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local claims = redis.call('HGETALL', p .. 'fx:claimed')
for i = 1, #claims, 2 do
  local owner = claims[i + 1]
  if owner ~= me and redis.call('EXISTS', p .. 'replica:' .. owner) == 0 then
    redis.call('HDEL', p .. 'fx:claimed', claims[i])
    redis.call('ZADD', p .. 'fx:due', redis.call('HGET', p .. 'fx:at', claims[i]), fx_member(p, claims[i]))
  end
end
local chosen, offset = {}, 0
while #chosen < limit and offset < 2000 do
  local members = redis.call('ZRANGEBYSCORE', p .. 'fx:due', '-inf', now, 'LIMIT', offset, 100)
  if #members == 0 then break end
  for _, member in ipairs(members) do
    if #chosen >= limit then break end
    local meta = cjson.decode(redis.call('HGET', p .. 'fx:meta', fx_id(member)))
    if not meta.k or redis.call('ZRANGE', p .. 'fx:key:' .. meta.k, 0, 0)[1] == member then chosen[#chosen + 1] = member end
  end
  offset = offset + #members
end
local out = {}
for _, member in ipairs(chosen) do
  local id = fx_id(member)
  redis.call('ZREM', p .. 'fx:due', member)
  redis.call('HSET', p .. 'fx:claimed', id, me)
  out[#out + 1] = {redis.call('HGET', p .. 'fx', id), redis.call('HGET', p .. 'fx:at', id), redis.call('HGET', p .. 'fx:attempts', id) or '0', redis.call('HEXISTS', p .. 'fx:begun', id)}
end
return out`;

/** ARGV: id, owner → 'ok' (the attempt recorded), or 'fenced' when the effect is not this owner's (taken over, or gone). */
export const BEGIN_EFFECT_SCRIPT = `
local p = KEYS[1]
if redis.call('HGET', p .. 'fx:claimed', ARGV[1]) ~= ARGV[2] then return 'fenced' end
redis.call('HINCRBY', p .. 'fx:attempts', ARGV[1], 1)
redis.call('HSET', p .. 'fx:begun', ARGV[1], 1)
return 'ok'`;

/**
 * ARGV: id, owner, 'done' | 'failed' | 'retry' | 'release', retry at (ms) → 'ok', or 'fenced' when the effect is
 * not this owner's. done and failed take it out; retry keeps it for later; release gives it back untouched.
 */
export const FINISH_EFFECT_SCRIPT = `${OUTBOX_LIB}
local p = KEYS[1]
local id = ARGV[1]
if redis.call('HGET', p .. 'fx:claimed', id) ~= ARGV[2] then return 'fenced' end
if ARGV[3] == 'done' or ARGV[3] == 'failed' then
  fx_drop(p, id)
  return 'ok'
end
redis.call('HDEL', p .. 'fx:claimed', id)
if ARGV[3] == 'retry' then
  redis.call('HDEL', p .. 'fx:begun', id)
  redis.call('HSET', p .. 'fx:at', id, ARGV[4])
end
redis.call('ZADD', p .. 'fx:due', redis.call('HGET', p .. 'fx:at', id), fx_member(p, id))
return 'ok'`;

/** ARGV: user id → drops every pending effect concerning the user; → how many. */
export const FORGET_EFFECTS_SCRIPT = `${OUTBOX_LIB}
local p = KEYS[1]
local ids = redis.call('SMEMBERS', p .. 'fx:user:' .. ARGV[1])
for i = 1, #ids do fx_drop(p, ids[i]) end
return #ids`;

/** → the due time of the earliest unclaimed effect that heads its order key (the next one claimDue could give), or false. */
export const NEXT_DUE_SCRIPT = `${OUTBOX_LIB}
local p = KEYS[1]
for offset = 0, 1900, 100 do
  local members = redis.call('ZRANGE', p .. 'fx:due', offset, offset + 99, 'WITHSCORES')
  if #members == 0 then return false end
  for i = 1, #members, 2 do
    local meta = cjson.decode(redis.call('HGET', p .. 'fx:meta', fx_id(members[i])))
    if not meta.k or redis.call('ZRANGE', p .. 'fx:key:' .. meta.k, 0, 0)[1] == members[i] then return members[i + 1] end
  end
end
return false`;

/** ARGV: now → {pending, due by now (claimed or not), the oldest due time of those or false}. */
export const OUTBOX_STATS_SCRIPT = `
local p = KEYS[1]
local now = tonumber(ARGV[1])
local due = redis.call('ZCOUNT', p .. 'fx:due', '-inf', now)
local oldest = redis.call('ZRANGE', p .. 'fx:due', 0, 0, 'WITHSCORES')[2]
oldest = oldest and tonumber(oldest)
local claimed = redis.call('HKEYS', p .. 'fx:claimed')
for i = 1, #claimed do
  local at = tonumber(redis.call('HGET', p .. 'fx:at', claimed[i]) or '')
  if at and at <= now then
    due = due + 1
    if not oldest or at < oldest then oldest = at end
  end
end
if oldest and oldest > now then oldest = false end
return {redis.call('HLEN', p .. 'fx'), due, tostring(oldest or '')}`;
