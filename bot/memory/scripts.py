"""The memory's Lua scripts: each change of a chat's memory as one atomic step in the chat's slot."""

from __future__ import annotations

__all__ = ["COMMIT", "NEW_SEASON", "FORGET", "FORGET_PIECE", "ENQUEUE_ONCE"]

# Count the inbox's first entries in: only if the inbox still starts with the entry the plan was made
# from (else another process counted them first: 0). KEYS: the inbox. ARGV: that first entry, how many
# entries the plan counts, ttl, the chat's key base, then the plan's operations on keys below the base:
# I part field n (HINCRBY), S part field value (HSET), R part value (RPUSH), T part n (keep the last n
# of a list), H part field (HDEL). Every key touched lives ttl seconds from now.
COMMIT = r"""
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then return 0 end
redis.call('LTRIM', KEYS[1], tonumber(ARGV[2]), -1)
local ttl, base = ARGV[3], ARGV[4]
local touched = {}
local i = 5
while i <= #ARGV do
  local op, key = ARGV[i], base .. ARGV[i + 1]
  touched[key] = true
  if op == 'I' then
    redis.call('HINCRBY', key, ARGV[i + 2], ARGV[i + 3])
    i = i + 4
  elseif op == 'S' then
    redis.call('HSET', key, ARGV[i + 2], ARGV[i + 3])
    i = i + 4
  elseif op == 'R' then
    redis.call('RPUSH', key, ARGV[i + 2])
    i = i + 3
  elseif op == 'T' then
    redis.call('LTRIM', key, -tonumber(ARGV[i + 2]), -1)
    i = i + 3
  elseif op == 'H' then
    redis.call('HDEL', key, ARGV[i + 2])
    i = i + 3
  else
    return redis.error_reply('bad memory operation ' .. op)
  end
end
for key in pairs(touched) do redis.call('EXPIRE', key, ttl) end
return 1
"""

# Put an entry into the chat's inbox once by its id. KEYS: the inbox, the zset of the ids put (score: when).
# ARGV: the id, the entry, now, how many ids the zset keeps, ttl. 1 if put, 0 if that id was put before.
ENQUEUE_ONCE = r"""
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[4]) - 1)
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return 1
"""

# KEYS: the chat's meta hash. ARGV: now, ttl. A missing season number means season 1.
NEW_SEASON = r"""
local n = redis.call('HINCRBY', KEYS[1], 'season', 1)
if n == 1 then n = redis.call('HINCRBY', KEYS[1], 'season', 1) end
redis.call('HSET', KEYS[1], 's' .. n, ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return n
"""

# Forget a person's number and name, his figures and ratings, his running matches' deals, and what others'
# figures keep of him. KEYS: the chat's ``who`` hash. ARGV: the chat's key base, his user key, his number, the
# last season, ttl, the games...
# The lists that keep his number (the history, the rating histories) are rewritten apart, in pieces (FORGET_PIECE).
FORGET = r"""
local base, user, who, seasons = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local others = redis.call('HVALS', KEYS[1])
for _, level in ipairs({'leicht', 'normal', 'stark'}) do others[#others + 1] = 'cpu-' .. level end
redis.call('HDEL', KEYS[1], user)
redis.call('HDEL', base .. 'nm', who)
redis.call('DEL', base .. 'run:' .. who)
for g = 6, #ARGV do
  local game = ARGV[g]
  for s = 0, seasons do
    local part = ':' .. s .. ':' .. game
    redis.call('DEL', base .. 'a' .. part .. ':' .. who)
    redis.call('HDEL', base .. 'r' .. part, who)
    for _, other in ipairs(others) do
      redis.call('HDEL', base .. 'a' .. part .. ':' .. other, 'p:' .. who, 'pw:' .. who, 'h:' .. who, 'hw:' .. who)
    end
  end
end
return 1
"""

# One piece of forgetting a person in a list. KEYS: the list (the history ``h``, or a rating history ``rh:...``).
# ARGV: the first index, how many items, his number, the list's kind (``h``: his seats in each record become
# nobody's ""; ``rh``: his points go). Returns {items changed, items removed, the list's length after}.
FORGET_PIECE = r"""
local first, who, kind, gone = tonumber(ARGV[1]), ARGV[3], ARGV[4], '\0forgotten'
local items = redis.call('LRANGE', KEYS[1], first, first + tonumber(ARGV[2]) - 1)
local changed, removed = 0, 0
for i, item in ipairs(items) do
  local new = item
  if kind == 'h' then
    local s, e, seats = string.find(item, '"w":(%b[])')
    if s then
      new = string.sub(item, 1, s - 1) .. '"w":' .. string.gsub(seats, '"' .. who .. '"', '""') .. string.sub(item, e + 1)
    end
  elseif string.match(item, '^%d+ (%S+) ') == who then
    new = gone
    removed = removed + 1
  end
  if new ~= item then
    redis.call('LSET', KEYS[1], first + i - 1, new)
    changed = changed + 1
  end
end
if removed > 0 then redis.call('LREM', KEYS[1], 0, gone) end
return {changed, removed, redis.call('LLEN', KEYS[1])}
"""
