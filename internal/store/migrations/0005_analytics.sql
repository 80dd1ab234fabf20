-- First-party, cookieless page-view counting (internal/analytics). Days are UTC dates written
-- 'YYYY-MM-DD', which sort as they compare; counters are daily rollups that every instance
-- adds to with upserts (views = views + n), so several instances on one PostgreSQL count
-- together. No address or user agent is stored anywhere: a visitor is a keyed hash that means
-- nothing once its day's salt is deleted, 48 hours after the day began.

-- Page views per day and per page, route locale, browser language, referrer and screen class:
-- every daily report is a GROUP BY over a range of days of this one table.
CREATE TABLE analytics_views (
    day      TEXT NOT NULL,       -- 2026-11-24
    page     TEXT NOT NULL,       -- the page's name in site.json: flip-image
    locale   TEXT NOT NULL,       -- the route's locale code: de
    lang     TEXT NOT NULL,       -- the browser's language, BCP 47 language[-Script][-REGION], 'und' if unknown
    referrer TEXT NOT NULL,       -- the referring host; '' for none and for the site itself
    screen   TEXT NOT NULL,       -- phone, tablet or desktop
    views    BIGINT NOT NULL,
    PRIMARY KEY (day, page, locale, lang, referrer, screen)
);

-- Per day: unique visitors, counted when a visitor's first view of the day is written (its
-- analytics_visitors row is new), and the views dropped as bots, for the bots' share.
CREATE TABLE analytics_days (
    day      TEXT PRIMARY KEY,
    visitors BIGINT NOT NULL,
    bots     BIGINT NOT NULL
);

-- One random salt per day, shared by every instance: the first to need it inserts it (insert
-- if absent), all read it back. Deleted once its day began 48 hours ago.
CREATE TABLE analytics_salts (
    day  TEXT PRIMARY KEY,
    salt TEXT NOT NULL            -- 32 random bytes, hex
);

-- The visitors of the last two days, for counting each once a day: visitor is the hex of the
-- first 16 bytes of HMAC-SHA256(the day's salt, address "\0" user agent). Deleted with the salt.
CREATE TABLE analytics_visitors (
    day     TEXT NOT NULL,
    visitor TEXT NOT NULL,
    PRIMARY KEY (day, visitor)
);

-- The visitors seen in each of the last minutes (Unix time / 60), for "visitors in the last
-- five minutes" across instances: COUNT(DISTINCT visitor) over the newest minutes. Rows are
-- kept for 15 minutes.
CREATE TABLE analytics_recent (
    minute  BIGINT NOT NULL,
    visitor TEXT NOT NULL,
    PRIMARY KEY (minute, visitor)
);
