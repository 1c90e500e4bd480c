import { describe, expect, it } from "vitest";
import { redact, redactUrl, settingsFrom } from "../../src/fleet/config.js";

const member = (url: string | null, machine: string | null = null) => ({
	schemaVersion: 1 as const,
	url,
	machine,
	joinedAt: 0,
});

describe("the fleet's configuration", () => {
	it("is off without BOULDER_FLEET_URL or a join, even with PG variables set for something else", () => {
		const settings = settingsFrom({ PGHOST: "db", PGDATABASE: "app" }, null);
		expect(settings.enabled).toBe(false);
	});

	it("takes BOULDER_FLEET_URL over the joined URL, and BOULDER_MACHINE over the joined name", () => {
		const settings = settingsFrom(
			{ BOULDER_FLEET_URL: "postgres://a@env-host/f", BOULDER_MACHINE: "sim-3" },
			member("postgres://b@joined/f", "joined-name"),
		);
		expect(settings).toMatchObject({ enabled: true, source: "BOULDER_FLEET_URL", machine: "sim-3" });
		expect(settings.client.connectionString).toBe("postgres://a@env-host/f");
		expect(settingsFrom({}, member(null, "joined-name"))).toMatchObject({
			source: "PG variables",
			machine: "joined-name",
		});
	});

	it("reads the PG variables from the given environment when joined without a URL", () => {
		const settings = settingsFrom(
			{ PGHOST: "db.internal", PGPORT: "6543", PGUSER: "u", PGPASSWORD: "hunter2", PGDATABASE: "fleet" },
			member(null),
		);
		expect(settings.client).toMatchObject({ host: "db.internal", port: 6543, user: "u", database: "fleet" });
		expect(settings.display).toBe("PG variables: u@db.internal:6543/fleet (password from PGPASSWORD)");
		expect(settings.display).not.toContain("hunter2");
	});

	it("is turned off by BOULDER_FLEET=off", () => {
		expect(settingsFrom({ BOULDER_FLEET_URL: "postgres://a@h/f", BOULDER_FLEET: "off" }, null).enabled).toBe(false);
	});

	it("refuses a URL that is not postgres://, without echoing its password", () => {
		expect(() => settingsFrom({ BOULDER_FLEET_URL: "mysql://u:pw-x@h/f" }, null)).toThrow(
			/expected a postgres:\/\/ URL/,
		);
		try {
			settingsFrom({ BOULDER_FLEET_URL: "mysql://u:pw-x@h/f" }, null);
		} catch (error) {
			expect(String(error)).not.toContain("pw-x");
		}
	});

	it("never shows a password: in the URL, in its parameters, or anywhere in a message", () => {
		expect(redactUrl("postgres://me:s3cret@db:5432/fleet?sslmode=require")).toBe(
			"postgres://me:***@db:5432/fleet?sslmode=require",
		);
		expect(redactUrl("postgres://me@db/fleet?password=s3cret")).toBe("postgres://me@db/fleet?password=***");
		const settings = settingsFrom({ BOULDER_FLEET_URL: "postgres://me:p%40ss@db/fleet" }, null);
		expect(settings.display).not.toContain("p%40ss");
		expect(
			redact('password authentication failed for "me" (p@ss) at postgres://me:p%40ss@db/fleet', settings.secrets),
		).toBe('password authentication failed for "me" (***) at postgres://me:***@db/fleet');
	});
});
