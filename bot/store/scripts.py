"""The Lua scripts of the store: each change of a table, its indexes and its timers as one atomic step.

The pieces (``INDEX_USER``, ``INDEX_CHAT``, ``TIMERS``, ``TABLE``) define local functions; the
scripts the store registers (:class:`bot.store.tables.Store`) are built from them, so a save on one
Redis server writes the record, the move log, the indexes and the timer together.
"""

from __future__ import annotations

__all__ = ["TIMERS", "CREATE", "SAVE", "CREATE_TABLE", "SAVE_TABLE", "CHAT_AFTER", "USER_AFTER", "TIMERS_AFTER",
           "GUARDS", "SET_SETTING", "RELEASE", "SET_REF", "SCHEDULE", "CLAIM", "DROP", "DELIVER", "DROP_IF_AT",
           "VACATION_START", "VACATION_END", "VACATION_OVER", "RECORDS"]

# Seats and unseats one user: SADD and refresh the TTL while open, SREM when finished.
INDEX_USER = r"""
local function index_user(key, id, ttl, open)
  if open then
    redis.call('SADD', key, id)
    redis.call('EXPIRE', key, ttl)
  else
    redis.call('SREM', key, id)
  end
end
"""

# The chat's index follows its table: an open table keeps it (or takes it, if it is free), a
# finished one gives it up.
INDEX_CHAT = r"""
local function index_chat(chat, id, ttl, open)
  local holder = redis.call('GET', chat)
  if not open then
    if holder == id then redis.call('DEL', chat) end
  elseif not holder or holder == id then
    redis.call('SET', chat, id, 'EX', ttl)
  end
end
"""

# Timers of a table: members '<id>:<version>:<kind>' in ``due``, listed per table in ``tables``.
# keep_timers drops the members ``drop(m)`` selects and returns the others; schedule_timer sets a
# timer (member ``member`` due at ``at``) unless the table has one for a newer version, dropping
# those of older versions (and ``also``, a member of this version, if given); timers_after_save
# does what a save of version ``new`` asks: drop them all (a finished table), or the older ones
# and set ``member`` if given. A show guard (kind ``show``, :mod:`bot.store.tables`) is no turn timer:
# neither a newer version nor a table's end drops it (only the outbox write that disarms it, or its
# firing); arm_guard sets one.
TIMERS = r"""
local function member_version(m)
  return tonumber(string.match(m, '^[^:]+:(%d+):'))
end

local function older(m, version)
  return member_version(m) < version and string.sub(m, -5) ~= ':show'
end

local function keep_timers(due, tables, id, drop)
  local keep = {}
  for m in string.gmatch(redis.call('HGET', tables, id) or '', '%S+') do
    if drop(m) then redis.call('ZREM', due, m) else keep[#keep + 1] = m end
  end
  if #keep == 0 then redis.call('HDEL', tables, id) else redis.call('HSET', tables, id, table.concat(keep, ' ')) end
  return keep
end

local function schedule_timer(due, tables, id, version, member, at, also)
  for m in string.gmatch(redis.call('HGET', tables, id) or '', '%S+') do
    if member_version(m) > version and string.sub(m, -5) ~= ':show' then return 0 end
  end
  local keep = keep_timers(due, tables, id, function(m)
    return older(m, version) or m == member or m == also
  end)
  keep[#keep + 1] = member
  redis.call('ZADD', due, at, member)
  redis.call('HSET', tables, id, table.concat(keep, ' '))
  return 1
end

local function timers_after_save(due, tables, id, new, open, member, at)
  if not open then
    keep_timers(due, tables, id, function(m) return string.sub(m, -5) ~= ':show' end)
  elseif member ~= '' then
    schedule_timer(due, tables, id, new, member, at, '')
  else
    keep_timers(due, tables, id, function(m) return older(m, new) end)
  end
end

local function arm_guard(due, tables, id, member, at)
  local list = redis.call('HGET', tables, id) or ''
  if not string.find(' ' .. list .. ' ', ' ' .. member .. ' ', 1, true) then
    redis.call('HSET', tables, id, list == '' and member or (list .. ' ' .. member))
  end
  redis.call('ZADD', due, at, member)
end
"""

# write_table stores a new table at version 1; save_table replaces the record if it is at the
# expected version and revision. rec, log, msg and the seen marker (nil for none) share the table's
# slot. save_table returns 1 and the users seated before, 0 (no such table), -1 (the update was
# applied already) or the stored version, data and revision.
TABLE = r"""
local function write_table(rec, seen, data, users, rev, ttl, seen_ttl)
  redis.call('HSET', rec, 'version', 1, 'rev', rev, 'data', data, 'users', users)
  redis.call('EXPIRE', rec, ttl)
  if seen then redis.call('SET', seen, 1, 'EX', seen_ttl) end
end

local function save_table(rec, log, msg, seen, version, rev, new_rev, data, users, ttl, seen_ttl, entries)
  local stored = redis.call('HGET', rec, 'version')
  if not stored then return 0 end
  if seen and redis.call('EXISTS', seen) == 1 then return -1 end
  local stored_rev = redis.call('HGET', rec, 'rev') or ''
  if stored ~= version or (rev ~= '' and stored_rev ~= rev) then
    return {stored, redis.call('HGET', rec, 'data'), stored_rev}
  end
  local before = redis.call('HGET', rec, 'users') or ''
  redis.call('HSET', rec, 'version', tonumber(stored) + 1, 'rev', new_rev, 'data', data, 'users', users)
  if #entries > 0 then redis.call('RPUSH', log, unpack(entries)) end
  for _, key in ipairs({rec, log, msg}) do redis.call('EXPIRE', key, ttl) end
  if seen then redis.call('SET', seen, 1, 'EX', seen_ttl) end
  return 1, before
end
"""

# The seat indexes of one save: users seated now per ``open``, users seated before but not now leave.
INDEX_USERS = INDEX_USER + r"""
local function index_users(prefix, id, users, before, ttl, open)
  local seated = {}
  for u in string.gmatch(users, '%S+') do
    seated[u] = true
    index_user(prefix .. ':user:' .. u, id, ttl, open)
  end
  for u in string.gmatch(before, '%S+') do
    if not seated[u] then redis.call('SREM', prefix .. ':user:' .. u, id) end
  end
end
"""

# One Redis: the whole create in one script. KEYS: rec, [seen marker]. ARGV: id, data, ttl, prefix,
# chat key, users, rev, seen ttl.
CREATE = TABLE + INDEX_USERS + r"""
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if not redis.call('SET', ARGV[4] .. ':chat:' .. ARGV[5], ARGV[1], 'NX', 'EX', ARGV[3]) then return 0 end
write_table(KEYS[1], KEYS[2], ARGV[2], ARGV[6], ARGV[7], ARGV[3], ARGV[8])
index_users(ARGV[4], ARGV[1], ARGV[6], '', ARGV[3], true)
return 1
"""

# A save's journal: ``n`` entries appended to the list ``key`` (another slot's on one Redis, the
# table's own pending list on Cluster), which then lives ``ttl`` seconds.
JOURNAL = r"""
local function append_journal(key, ttl, entries)
  if key == '' or #entries == 0 then return end
  redis.call('RPUSH', key, unpack(entries))
  redis.call('EXPIRE', key, ttl)
end
"""

# A save's notices kept for its show guard: the string ``key`` (the table's slot) holds ``text`` for ``ttl`` s.
NOTES = r"""
local function keep_notes(key, text, ttl)
  if text ~= '' then redis.call('SET', key, text, 'EX', ttl) end
end
"""

# One Redis: the whole save in one script. KEYS: rec, log, msg, due, tables, [seen marker]. ARGV:
# expected version, expected rev ('' for any), new rev, data, open (1/0), ttl, id, prefix, chat key,
# users, timer member ('' for none), timer due time, seen ttl, journal key ('' for none), journal ttl,
# show guard member ('' for none), its due time, notes key, notes ('' for none), notes ttl, journal
# entries n, the n journal entries, log entries... Returns 1, 0 (no such table), -1 (the update was
# applied already) or the stored version, data and rev.
SAVE = TABLE + INDEX_USERS + INDEX_CHAT + TIMERS + JOURNAL + NOTES + r"""
local n = tonumber(ARGV[21])
local result, before = save_table(KEYS[1], KEYS[2], KEYS[3], KEYS[6], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[10],
                                  ARGV[6], ARGV[13], {unpack(ARGV, 22 + n)})
if result ~= 1 then return result end
local open, ttl, id, prefix = ARGV[5] == '1', ARGV[6], ARGV[7], ARGV[8]
index_chat(prefix .. ':chat:' .. ARGV[9], id, ttl, open)
index_users(prefix, id, ARGV[10], before, ttl, open)
timers_after_save(KEYS[4], KEYS[5], id, tonumber(ARGV[1]) + 1, open, ARGV[11], ARGV[12])
if ARGV[16] ~= '' then arm_guard(KEYS[4], KEYS[5], id, ARGV[16], ARGV[17]) end
keep_notes(ARGV[18], ARGV[19], ARGV[20])
if n > 0 then append_journal(ARGV[14], ARGV[15], {unpack(ARGV, 22, 21 + n)}) end
return 1
"""

# Cluster: the table's part of a create (one slot). KEYS: rec, [seen marker]. ARGV: data, users, rev,
# ttl, seen ttl.
CREATE_TABLE = TABLE + r"""
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
write_table(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
return 1
"""

# Cluster: the table's part of a save (one slot). KEYS: rec, log, msg, [seen marker]. ARGV: expected
# version, expected rev, new rev, data, users, ttl, seen ttl, pending journal key (the table's own),
# notes key, notes ('' for none), notes ttl, journal entries n, the n entries, log entries... Returns
# what save_table does, success as {1, users seated before}.
SAVE_TABLE = TABLE + JOURNAL + NOTES + r"""
local n = tonumber(ARGV[12])
local result, before = save_table(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5],
                                  ARGV[6], ARGV[7], {unpack(ARGV, 13 + n)})
if result ~= 1 then return result end
keep_notes(ARGV[9], ARGV[10], ARGV[11])
if n > 0 then append_journal(ARGV[8], ARGV[6], {unpack(ARGV, 13, 12 + n)}) end
return {1, before}
"""

# Cluster: a save's journal delivered to its list, each entry once. KEYS: the list, its zset of
# delivered ids (one slot). ARGV: ttl, now, then id and entry pairs. The zset keeps the last 1000 ids.
DELIVER = r"""
for i = 3, #ARGV, 2 do
  if not redis.call('ZSCORE', KEYS[2], ARGV[i]) then
    redis.call('RPUSH', KEYS[1], ARGV[i + 1])
    redis.call('ZADD', KEYS[2], ARGV[2], ARGV[i])
  end
end
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -1001)
redis.call('EXPIRE', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[1])
return 1
"""

# Cluster: one index key after a save. KEYS: the chat index. ARGV: id, ttl, open (1/0).
CHAT_AFTER = INDEX_CHAT + r"""
index_chat(KEYS[1], ARGV[1], ARGV[2], ARGV[3] == '1')
return 1
"""

# KEYS: a user's set. ARGV: id, ttl, open (1/0: seated at an open table, or not any more).
USER_AFTER = INDEX_USER + r"""
index_user(KEYS[1], ARGV[1], ARGV[2], ARGV[3] == '1')
return 1
"""

# KEYS: due, tables. ARGV: id, new version, open (1/0), timer member ('' for none), due time.
TIMERS_AFTER = TIMERS + r"""
timers_after_save(KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1', ARGV[4], ARGV[5])
return 1
"""

# Cluster, a save's first step: its resync guard (as SCHEDULE) and its show guard. KEYS: due, tables. ARGV: id,
# version, sync member, its due time, show guard member ('' for none), its due time.
GUARDS = TIMERS + r"""
schedule_timer(KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], '')
if ARGV[5] ~= '' then arm_guard(KEYS[1], KEYS[2], ARGV[1], ARGV[5], ARGV[6]) end
return 1
"""

# KEYS: the chat's settings. ARGV: name, value, ttl.
SET_SETTING = r"""
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return redis.call('EXPIRE', KEYS[1], ARGV[3])
"""

# KEYS: chat index. ARGV: id.
RELEASE = r"""
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: rec, msg. ARGV: field, value. The refs live as long as the record.
SET_REF = r"""
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
"""

# KEYS: due, tables. ARGV: id, version, member, due time, member this one replaces ('' for none).
SCHEDULE = TIMERS + r"""
return schedule_timer(KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5])
"""

# KEYS: due. ARGV: member, now, lease end. The member must be due; it comes due again at the lease end.
CLAIM = r"""
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at or tonumber(at) > tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], 'XX', ARGV[3], ARGV[1])
return 1
"""

# KEYS: due, tables. ARGV: id, member ('' for all of the table's). Returns how many were dropped.
DROP = TIMERS + r"""
local before = redis.call('ZCARD', KEYS[1])
keep_timers(KEYS[1], KEYS[2], ARGV[1], function(m) return ARGV[2] == '' or m == ARGV[2] end)
return before - redis.call('ZCARD', KEYS[1])
"""

# KEYS: a zset. ARGV: member, score. Drops the member only if it still has that score (nobody set it anew).
DROP_IF_AT = r"""
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if at and tonumber(at) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""

# A vacation begins, within the year's budget. KEYS: the person's vacation hash, his year's count of days
# taken (one slot). ARGV: now, until, days, budget, zone, year, the count's ttl, the hash's end of life, language.
# Returns {1, days left}, {-1, until} (one runs already) or {-2, days left} (beyond the budget).
VACATION_START = r"""
local ends = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if ends > tonumber(ARGV[1]) then return {-1, tostring(ends)} end
local used = tonumber(redis.call('GET', KEYS[2]) or '0')
local days, budget = tonumber(ARGV[3]), tonumber(ARGV[4])
if used + days > budget then return {-2, budget - used} end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'start', ARGV[1], 'until', ARGV[2], 'days', days, 'zone', ARGV[5], 'year', ARGV[6],
           'lang', ARGV[9])
redis.call('EXPIREAT', KEYS[1], ARGV[8])
redis.call('INCRBY', KEYS[2], days)
redis.call('EXPIRE', KEYS[2], ARGV[7])
return {1, budget - used - days}
"""

# A running vacation ends early: the unused whole days go back to the year's budget; he knows it is over
# ('told': he ended it). KEYS: as above. ARGV: now, the hash's ttl after it. Returns the days given back, or -1
# if none was running.
VACATION_END = r"""
local now = tonumber(ARGV[1])
local start = tonumber(redis.call('HGET', KEYS[1], 'start') or '0')
local ends = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if ends <= now then return -1 end
local days = tonumber(redis.call('HGET', KEYS[1], 'days') or '0')
local taken = math.max(1, math.ceil((now - start) / 86400))
local back = math.max(0, days - taken)
if back > 0 and redis.call('EXISTS', KEYS[2]) == 1 then redis.call('DECRBY', KEYS[2], back) end
redis.call('HSET', KEYS[1], 'until', ARGV[1], 'days', days - back, 'told', 1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
return back
"""

# A vacation ended by its day is told to him once: 1 for the first caller after its end, unless he ended it
# himself (VACATION_END marked it told). KEYS: his vacation hash. ARGV: now.
VACATION_OVER = r"""
local ends = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if ends == 0 or ends > tonumber(ARGV[1]) then return 0 end
return redis.call('HSETNX', KEYS[1], 'told', 1)
"""

# KEYS: the records (rec) of some tables. Each one's version, data and kind, in one reply (one Redis server:
# a person's tables live in many slots of a Cluster).
RECORDS = r"""
local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('HMGET', key, 'version', 'data', 'kind') end
return out
"""
