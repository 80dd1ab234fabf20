-- Page views per day and per dimension, for the reports (internal/analytics/report.go): each
-- table is analytics_views summed over the columns it leaves out. A year of analytics_views is
-- millions of rows (thousands of combinations a day), and a report summing them per page,
-- language, referrer and screen read them five times over; these hold a few dozen to a few
-- hundred rows a day. Triggers keep them, in the transaction of whatever changes
-- analytics_views (the writer, an instance not yet upgraded, an operator's DELETE), so they
-- cannot disagree with it. docs/decisions.md says more. PostgreSQL's twin of this file does the
-- same with statement-level triggers.

-- Per page and route locale: also the daily series and the locales' top list.
CREATE TABLE analytics_pages (
    day    TEXT NOT NULL,
    page   TEXT NOT NULL,
    locale TEXT NOT NULL,
    views  BIGINT NOT NULL,
    PRIMARY KEY (day, page, locale)
);

-- Per browser language ('und' when unknown).
CREATE TABLE analytics_langs (
    day   TEXT NOT NULL,
    lang  TEXT NOT NULL,
    views BIGINT NOT NULL,
    PRIMARY KEY (day, lang)
);

-- Per referring host, '' (none, or the site itself) included: every table sums to the views.
CREATE TABLE analytics_referrers (
    day      TEXT NOT NULL,
    referrer TEXT NOT NULL,
    views    BIGINT NOT NULL,
    PRIMARY KEY (day, referrer)
);

-- Per screen class.
CREATE TABLE analytics_screens (
    day    TEXT NOT NULL,
    screen TEXT NOT NULL,
    views  BIGINT NOT NULL,
    PRIMARY KEY (day, screen)
);

-- The views counted before this migration (the migration holds SQLite's write lock: nothing
-- is written between this and the triggers).
INSERT INTO analytics_pages (day, page, locale, views)
    SELECT day, page, locale, SUM(views) FROM analytics_views GROUP BY day, page, locale;
INSERT INTO analytics_langs (day, lang, views)
    SELECT day, lang, SUM(views) FROM analytics_views GROUP BY day, lang;
INSERT INTO analytics_referrers (day, referrer, views)
    SELECT day, referrer, SUM(views) FROM analytics_views GROUP BY day, referrer;
INSERT INTO analytics_screens (day, screen, views)
    SELECT day, screen, SUM(views) FROM analytics_views GROUP BY day, screen;

-- A new row adds its views.
CREATE TRIGGER analytics_views_insert AFTER INSERT ON analytics_views BEGIN
    INSERT INTO analytics_pages (day, page, locale, views) VALUES (NEW.day, NEW.page, NEW.locale, NEW.views)
        ON CONFLICT (day, page, locale) DO UPDATE SET views = views + excluded.views;
    INSERT INTO analytics_langs (day, lang, views) VALUES (NEW.day, NEW.lang, NEW.views)
        ON CONFLICT (day, lang) DO UPDATE SET views = views + excluded.views;
    INSERT INTO analytics_referrers (day, referrer, views) VALUES (NEW.day, NEW.referrer, NEW.views)
        ON CONFLICT (day, referrer) DO UPDATE SET views = views + excluded.views;
    INSERT INTO analytics_screens (day, screen, views) VALUES (NEW.day, NEW.screen, NEW.views)
        ON CONFLICT (day, screen) DO UPDATE SET views = views + excluded.views;
END;

-- The writer's upsert (views = views + n): the difference goes to the same keys.
CREATE TRIGGER analytics_views_update AFTER UPDATE ON analytics_views
WHEN NEW.day = OLD.day AND NEW.page = OLD.page AND NEW.locale = OLD.locale AND NEW.lang = OLD.lang
    AND NEW.referrer = OLD.referrer AND NEW.screen = OLD.screen
BEGIN
    UPDATE analytics_pages SET views = views + NEW.views - OLD.views
        WHERE day = NEW.day AND page = NEW.page AND locale = NEW.locale;
    UPDATE analytics_langs SET views = views + NEW.views - OLD.views WHERE day = NEW.day AND lang = NEW.lang;
    UPDATE analytics_referrers SET views = views + NEW.views - OLD.views WHERE day = NEW.day AND referrer = NEW.referrer;
    UPDATE analytics_screens SET views = views + NEW.views - OLD.views WHERE day = NEW.day AND screen = NEW.screen;
END;

-- A row moved to other keys (never by handy): out of the old ones, into the new.
CREATE TRIGGER analytics_views_rekey AFTER UPDATE ON analytics_views
WHEN NOT (NEW.day = OLD.day AND NEW.page = OLD.page AND NEW.locale = OLD.locale AND NEW.lang = OLD.lang
    AND NEW.referrer = OLD.referrer AND NEW.screen = OLD.screen)
BEGIN
    UPDATE analytics_pages SET views = views - OLD.views WHERE day = OLD.day AND page = OLD.page AND locale = OLD.locale;
    UPDATE analytics_langs SET views = views - OLD.views WHERE day = OLD.day AND lang = OLD.lang;
    UPDATE analytics_referrers SET views = views - OLD.views WHERE day = OLD.day AND referrer = OLD.referrer;
    UPDATE analytics_screens SET views = views - OLD.views WHERE day = OLD.day AND screen = OLD.screen;
    INSERT INTO analytics_pages (day, page, locale, views) VALUES (NEW.day, NEW.page, NEW.locale, NEW.views)
        ON CONFLICT (day, page, locale) DO UPDATE SET views = views + excluded.views;
    INSERT INTO analytics_langs (day, lang, views) VALUES (NEW.day, NEW.lang, NEW.views)
        ON CONFLICT (day, lang) DO UPDATE SET views = views + excluded.views;
    INSERT INTO analytics_referrers (day, referrer, views) VALUES (NEW.day, NEW.referrer, NEW.views)
        ON CONFLICT (day, referrer) DO UPDATE SET views = views + excluded.views;
    INSERT INTO analytics_screens (day, screen, views) VALUES (NEW.day, NEW.screen, NEW.views)
        ON CONFLICT (day, screen) DO UPDATE SET views = views + excluded.views;
END;

-- A deleted row takes its views away (a row left at 0 is not reported; the purge deletes the
-- days of every table).
CREATE TRIGGER analytics_views_delete AFTER DELETE ON analytics_views BEGIN
    UPDATE analytics_pages SET views = views - OLD.views WHERE day = OLD.day AND page = OLD.page AND locale = OLD.locale;
    UPDATE analytics_langs SET views = views - OLD.views WHERE day = OLD.day AND lang = OLD.lang;
    UPDATE analytics_referrers SET views = views - OLD.views WHERE day = OLD.day AND referrer = OLD.referrer;
    UPDATE analytics_screens SET views = views - OLD.views WHERE day = OLD.day AND screen = OLD.screen;
END;
