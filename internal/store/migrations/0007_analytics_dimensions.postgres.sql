-- Page views per day and per dimension, for the reports (internal/analytics/report.go): each
-- table is analytics_views summed over the columns it leaves out. A year of analytics_views is
-- millions of rows (thousands of combinations a day), and a report summing them per page,
-- language, referrer and screen read them five times over; these hold a few dozen to a few
-- hundred rows a day. Triggers keep them, in the transaction of whatever changes
-- analytics_views (the writer, an instance not yet upgraded, an operator's DELETE), so they
-- cannot disagree with it. docs/decisions.md says more. The triggers here are statement-level:
-- one set-based statement per rollup for each multi-row upsert of the writer, rows in key order.

-- Instances not yet upgraded may be writing: nothing is written between the copy below and the
-- triggers (the lock is held until the migration commits).
LOCK TABLE analytics_views IN SHARE ROW EXCLUSIVE MODE;

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

-- The views counted before this migration.
INSERT INTO analytics_pages (day, page, locale, views)
    SELECT day, page, locale, SUM(views) FROM analytics_views GROUP BY day, page, locale;
INSERT INTO analytics_langs (day, lang, views)
    SELECT day, lang, SUM(views) FROM analytics_views GROUP BY day, lang;
INSERT INTO analytics_referrers (day, referrer, views)
    SELECT day, referrer, SUM(views) FROM analytics_views GROUP BY day, referrer;
INSERT INTO analytics_screens (day, screen, views)
    SELECT day, screen, SUM(views) FROM analytics_views GROUP BY day, screen;

-- New rows add their views to each rollup, in key order (as the writer writes analytics_views).
CREATE FUNCTION analytics_views_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO analytics_pages (day, page, locale, views)
        SELECT day, page, locale, SUM(views) FROM new_rows GROUP BY day, page, locale ORDER BY day, page, locale
        ON CONFLICT (day, page, locale) DO UPDATE SET views = analytics_pages.views + excluded.views;
    INSERT INTO analytics_langs (day, lang, views)
        SELECT day, lang, SUM(views) FROM new_rows GROUP BY day, lang ORDER BY day, lang
        ON CONFLICT (day, lang) DO UPDATE SET views = analytics_langs.views + excluded.views;
    INSERT INTO analytics_referrers (day, referrer, views)
        SELECT day, referrer, SUM(views) FROM new_rows GROUP BY day, referrer ORDER BY day, referrer
        ON CONFLICT (day, referrer) DO UPDATE SET views = analytics_referrers.views + excluded.views;
    INSERT INTO analytics_screens (day, screen, views)
        SELECT day, screen, SUM(views) FROM new_rows GROUP BY day, screen ORDER BY day, screen
        ON CONFLICT (day, screen) DO UPDATE SET views = analytics_screens.views + excluded.views;
    RETURN NULL;
END
$$;

-- Updated rows (the writer's upsert: views = views + n) add the difference, per key: a row
-- moved to other keys leaves the old ones and joins the new.
CREATE FUNCTION analytics_views_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO analytics_pages (day, page, locale, views)
        SELECT day, page, locale, SUM(views) FROM (
            SELECT day, page, locale, views FROM new_rows UNION ALL SELECT day, page, locale, -views FROM old_rows) AS d
        GROUP BY day, page, locale HAVING SUM(views) <> 0 ORDER BY day, page, locale
        ON CONFLICT (day, page, locale) DO UPDATE SET views = analytics_pages.views + excluded.views;
    INSERT INTO analytics_langs (day, lang, views)
        SELECT day, lang, SUM(views) FROM (
            SELECT day, lang, views FROM new_rows UNION ALL SELECT day, lang, -views FROM old_rows) AS d
        GROUP BY day, lang HAVING SUM(views) <> 0 ORDER BY day, lang
        ON CONFLICT (day, lang) DO UPDATE SET views = analytics_langs.views + excluded.views;
    INSERT INTO analytics_referrers (day, referrer, views)
        SELECT day, referrer, SUM(views) FROM (
            SELECT day, referrer, views FROM new_rows UNION ALL SELECT day, referrer, -views FROM old_rows) AS d
        GROUP BY day, referrer HAVING SUM(views) <> 0 ORDER BY day, referrer
        ON CONFLICT (day, referrer) DO UPDATE SET views = analytics_referrers.views + excluded.views;
    INSERT INTO analytics_screens (day, screen, views)
        SELECT day, screen, SUM(views) FROM (
            SELECT day, screen, views FROM new_rows UNION ALL SELECT day, screen, -views FROM old_rows) AS d
        GROUP BY day, screen HAVING SUM(views) <> 0 ORDER BY day, screen
        ON CONFLICT (day, screen) DO UPDATE SET views = analytics_screens.views + excluded.views;
    RETURN NULL;
END
$$;

-- Deleted rows take their views away (a row left at 0 is not reported; the purge deletes the
-- days of every table).
CREATE FUNCTION analytics_views_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE analytics_pages AS r SET views = r.views - o.views
        FROM (SELECT day, page, locale, SUM(views) AS views FROM old_rows GROUP BY day, page, locale) AS o
        WHERE r.day = o.day AND r.page = o.page AND r.locale = o.locale;
    UPDATE analytics_langs AS r SET views = r.views - o.views
        FROM (SELECT day, lang, SUM(views) AS views FROM old_rows GROUP BY day, lang) AS o
        WHERE r.day = o.day AND r.lang = o.lang;
    UPDATE analytics_referrers AS r SET views = r.views - o.views
        FROM (SELECT day, referrer, SUM(views) AS views FROM old_rows GROUP BY day, referrer) AS o
        WHERE r.day = o.day AND r.referrer = o.referrer;
    UPDATE analytics_screens AS r SET views = r.views - o.views
        FROM (SELECT day, screen, SUM(views) AS views FROM old_rows GROUP BY day, screen) AS o
        WHERE r.day = o.day AND r.screen = o.screen;
    RETURN NULL;
END
$$;

-- A trigger with transition tables takes one event: an upsert fires the first with the rows it
-- inserted and the second with those it updated.
CREATE TRIGGER analytics_views_insert AFTER INSERT ON analytics_views
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_views_inserted();
CREATE TRIGGER analytics_views_update AFTER UPDATE ON analytics_views
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_views_updated();
CREATE TRIGGER analytics_views_delete AFTER DELETE ON analytics_views
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_views_deleted();
