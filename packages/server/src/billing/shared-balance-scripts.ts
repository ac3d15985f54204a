/**
 * The Lua steps behind the shared balances (see shared-balances.ts for the scheme). A balance is a hash:
 * `v` the live value, and per node `p:<node>` (its changes not yet written to the database, as counted in `v`)
 * and `f:<node>` (what it has written or credited in total, as counted in the database part of `v`). Every step
 * changes `v` together with the node's own fields, so `v` = database value + Σ p always holds in one step.
 */

// KEYS: the user's balance [, the token's]. ARGV: node, amount. Returns {code, userLeft, tokenLeft}: 0 taken,
// 1 the user has too little, 2 the token has too little, -1 the balance at index 2nd value is missing, -2 this
// node is not registered in it.
export const RESERVE = `
local p = 'p:' .. ARGV[1]
local amount = tonumber(ARGV[2])
local left = {0, 0}
for i = 1, #KEYS do
  local v = redis.call('HGET', KEYS[i], 'v')
  if not v then return {-1, i, 0} end
  if redis.call('HEXISTS', KEYS[i], p) == 0 then return {-2, i, 0} end
  left[i] = tonumber(v)
  if left[i] <= 0 or left[i] < amount then return {i, left[1], left[2]} end
end
for i = 1, #KEYS do
  left[i] = redis.call('HINCRBY', KEYS[i], 'v', -amount)
  redis.call('HINCRBY', KEYS[i], p, -amount)
end
return {0, left[1], left[2]}`;

// KEYS: a balance. ARGV: node, change to its pending, change to its written total. Applied only where this node
// is registered (returns 1), else nothing (0; -1 the balance is missing): its pending reaches the balance when it
// registers or flushes. ARGV[4] '1' (a credit): spendable at once even then, until the balance is rebuilt.
export const MOVE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local p, f = 'p:' .. ARGV[1], 'f:' .. ARGV[1]
local change = tonumber(ARGV[2]) + tonumber(ARGV[3])
if redis.call('HEXISTS', KEYS[1], p) == 0 then
  if ARGV[4] == '1' then redis.call('HINCRBY', KEYS[1], 'v', change) end
  return 0
end
redis.call('HINCRBY', KEYS[1], 'v', change)
redis.call('HINCRBY', KEYS[1], p, ARGV[2])
redis.call('HINCRBY', KEYS[1], f, ARGV[3])
return 1`;

// KEYS: a balance. ARGV: node, its pending, its written total (absolute, as the node knows them). Registers the
// node (its pending joins `v`; what it wrote is in the database part already) or corrects its fields and `v`
// by the same amount, so a step that timed out and may or may not have run is made right. -1: missing.
export const ASSERT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local p, f = 'p:' .. ARGV[1], 'f:' .. ARGV[1]
local pending, written = tonumber(ARGV[2]), tonumber(ARGV[3])
local change = pending
local held = redis.call('HGET', KEYS[1], p)
if held then change = pending - tonumber(held) + written - tonumber(redis.call('HGET', KEYS[1], f)) end
redis.call('HINCRBY', KEYS[1], 'v', change)
redis.call('HSET', KEYS[1], p, pending, f, written)
return 1`;

// KEYS: a balance, the flush guard. ARGV: node, its pending, its written total, the database value, the guard
// version read before the database, now (ms), '1' to replace an existing balance. Builds the balance from the
// database and this node's pending; other nodes register again on their next step. Returns 0 built, 1 it exists
// (not replacing), 2 a flush ran or runs since the database was read (read again).
export const SEED = `
if ARGV[7] ~= '1' and redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
if (redis.call('HGET', KEYS[2], 'ver') or '0') ~= ARGV[5] then return 2 end
local guard = redis.call('HGETALL', KEYS[2])
for i = 1, #guard, 2 do
  if string.sub(guard[i], 1, 2) == 'g:' and tonumber(guard[i + 1]) > tonumber(ARGV[6]) then return 2 end
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'v', tonumber(ARGV[4]) + tonumber(ARGV[2]), 'p:' .. ARGV[1], ARGV[2], 'f:' .. ARGV[1], ARGV[3])
return 0`;

// KEYS: the flush guard. ARGV: node, expiry (ms) or '' to end. Every start and end moves the version, so a seed
// that read the database meanwhile reads again.
export const GUARD = `
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], 'g:' .. ARGV[1]) else redis.call('HSET', KEYS[1], 'g:' .. ARGV[1], ARGV[2]) end
return redis.call('HINCRBY', KEYS[1], 'ver', 1)`;

// KEYS: a balance, the flush guard. ARGV: the database value, the guard version read before it, now (ms). When no
// node holds a share (every `p` is 0) and no flush ran or runs since the read, `v` must equal the database value:
// it is set to it. Returns 0 it agreed, 1 corrected, 2 cannot be judged now (read again later), -1 missing.
export const VERIFY = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if (redis.call('HGET', KEYS[2], 'ver') or '0') ~= ARGV[2] then return 2 end
local guard = redis.call('HGETALL', KEYS[2])
for i = 1, #guard, 2 do
  if string.sub(guard[i], 1, 2) == 'g:' and tonumber(guard[i + 1]) > tonumber(ARGV[3]) then return 2 end
end
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if string.sub(fields[i], 1, 2) == 'p:' and tonumber(fields[i + 1]) ~= 0 then return 2 end
end
if tonumber(redis.call('HGET', KEYS[1], 'v')) == tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1])
return 1`;
