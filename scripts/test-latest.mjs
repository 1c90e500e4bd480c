/**
 * The compatibility lane: `npm run test:latest [-- --only claude-code,codex]`.
 *
 * Installs each harness's newest release (`npm view <package> version`) into
 * a cache folder of its own, never the lockfile (`$BOULDER_LATEST_DIR`, else
 * `$XDG_CACHE_HOME/boulder/latest`, else `~/.cache/boulder/latest`), runs
 * that harness's end-to-end suites against it (`BOULDER_HARNESSES`), one
 * file at a time, a failing file once more before it counts as failed, and
 * writes what it found:
 *
 * - `docs/compatibility.md`: harness × version × pass/fail, per suite;
 * - `src/adapters/shared/tested-versions.json`: `lanePassed` for each harness
 *   whose suites all passed, which `boulder doctor` reads;
 * - the README's "Tested with" table (between its markers).
 *
 * Build first (`npm run build`): the suites run `dist/`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const testedFile = path.join(root, "src", "adapters", "shared", "tested-versions.json");
const pinnedManifest = JSON.parse(readFileSync(path.join(root, "test", "harnesses", "package.json"), "utf8"));
const tested = JSON.parse(readFileSync(testedFile, "utf8"));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/**
 * Which suites drive which harness: the e2e files named for it
 * (`<harness>.test.ts`, `<harness>-*.test.ts`, `journey-<harness>.test.ts`),
 * and the few older names listed here.
 */
const EXTRA_SUITES = { "claude-code": ["claude-smoke.test.ts"] };
const suitesOf = (name, file) =>
	new RegExp(`^(journey-)?${name}[-.]`).test(file) || (EXTRA_SUITES[name] ?? []).includes(file);

const onlyArg =
	process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length) ??
	(process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined);
const only = onlyArg ? new Set(onlyArg.split(",")) : null;
for (const name of only ?? []) {
	if (!tested[name])
		fail(`--only names ${name}, which boulder has no adapter for (it knows ${Object.keys(tested).join(", ")})`);
}
const names = Object.keys(tested).filter((name) => only === null || only.has(name));

if (!existsSync(path.join(root, "dist", "hook", "claude-code.cjs")))
	fail("dist/ is missing: run `npm run build` first");

const cacheDir = process.env.BOULDER_LATEST_DIR
	? path.resolve(process.env.BOULDER_LATEST_DIR)
	: path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "boulder", "latest");
mkdirSync(cacheDir, { recursive: true });

const newest = {};
for (const name of names) newest[name] = npmView(tested[name].package);
/** Harnesses whose newest release does not install here, with npm's reason: their suites are not run. */
const uninstallable = installNewest(newest);

const today = new Date().toISOString().slice(0, 10);
const files = readdirSync(path.join(root, "test", "e2e")).filter((file) => file.endsWith(".test.ts"));
const results = {};
for (const name of names) {
	if (uninstallable[name]) {
		results[name] = [];
		console.error(`${name} ${newest[name]}: FAILED (it does not install: ${uninstallable[name]})`);
		continue;
	}
	const suites = files.filter((file) => suitesOf(name, file)).sort();
	results[name] = suites.map((file) => ({ file, passed: runSuite(file) }));
	// A harness with no suite named for it has not passed anything.
	const passed = suites.length > 0 && results[name].every((suite) => suite.passed);
	console.error(
		`${name} ${newest[name]}: ${passed ? "passed" : suites.length === 0 ? "FAILED (no e2e suite is named for it)" : "FAILED"}`,
	);
	if (passed) tested[name].lanePassed = { version: newest[name], date: today };
}

writeFileSync(testedFile, `${JSON.stringify(tested, null, "\t")}\n`);
writeCompatibility();
writeReadme();
// Laid out as `npm run check` wants them (tables padded).
spawnSync(
	"npx",
	["biome", "format", "--write", testedFile, path.join(root, "docs", "compatibility.md"), path.join(root, "README.md")],
	{
		cwd: root,
		stdio: "ignore",
	},
);
const failed = names.filter((name) => results[name].length === 0 || !results[name].every((suite) => suite.passed));
process.exit(failed.length === 0 ? 0 : 1);

function npmView(pkg) {
	const result = spawnSync(npm, ["view", pkg, "version"], { encoding: "utf8" });
	const version = result.stdout.trim();
	if (result.status !== 0 || version === "") fail(`\`npm view ${pkg} version\` failed: ${result.stderr.trim()}`);
	return version;
}

/**
 * Installs the newest release of each harness asked for (the pins for the
 * rest) into the cache folder. When that fails, each newest release is tried
 * on its own beside the ones that installed, so one harness's broken release
 * (say, a platform binary missing from the registry) is reported as such and
 * the others are still tested. Returns the ones that do not install, each
 * with npm's reason.
 */
function installNewest(versions) {
	const together = install(versions);
	if (together === null) return {};
	const asked = Object.entries(versions);
	// Asked for one alone (`--only`): nothing else to test, so nothing to put back.
	if (asked.length === 1) return { [asked[0][0]]: together };
	const accepted = {};
	const refused = {};
	for (const [name, version] of asked) {
		const problem = install({ ...accepted, [name]: version });
		if (problem === null) accepted[name] = version;
		else refused[name] = problem;
	}
	// The folder holds what was tried last: put back the set that installs.
	if (install(accepted) !== null)
		fail(`npm install in ${cacheDir} failed even with the newest releases that installed alone`);
	return refused;
}

/** The cache folder's package: the versions given, the pins for the rest (and the suites' Node 22). Null when it installed, else npm's reason. */
function install(versions) {
	const dependencies = { ...pinnedManifest.dependencies };
	for (const [name, version] of Object.entries(versions)) dependencies[tested[name].package] = version;
	const manifest = {
		name: "boulder-latest-harnesses",
		private: true,
		description:
			"The newest harness releases, for boulder's compatibility lane (scripts/test-latest.mjs). Not a lockfile of the project.",
		dependencies,
		allowScripts: pinnedManifest.allowScripts,
	};
	const file = path.join(cacheDir, "package.json");
	// Written only once an install of exactly this package.json succeeded: a failed one leaves node_modules half done.
	const done = path.join(cacheDir, ".installed");
	const text = `${JSON.stringify(manifest, null, 2)}\n`;
	if (existsSync(done) && readFileSync(done, "utf8") === text && existsSync(path.join(cacheDir, "node_modules")))
		return null;
	rmSync(done, { force: true });
	writeFileSync(file, text);
	console.error(
		`Installing ${
			Object.entries(versions)
				.map(([name, version]) => `${name} ${version}`)
				.join(", ") || "the pinned harnesses"
		} into ${cacheDir} ...`,
	);
	const result = spawnSync(npm, ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
		cwd: cacheDir,
		encoding: "utf8",
		stdio: ["ignore", "inherit", "pipe"],
	});
	if (result.status === 0) {
		writeFileSync(done, text);
		return null;
	}
	process.stderr.write(result.stderr);
	return npmReason(result.stderr) ?? `npm install exited ${result.status ?? result.signal}`;
}

/** npm's own words for why an install failed: its first "notarget" or error line that says something. */
function npmReason(stderr) {
	const lines = stderr.split("\n").map((line) => line.replace(/^(npm error )+/, "").trim());
	return (
		lines.find((line) => line.startsWith("notarget No matching version"))?.replace(/^notarget /, "") ??
		lines.find((line) => line !== "" && !/^(code|path|command|A complete log)/.test(line))
	);
}

/** One e2e file against the cache's harnesses; a failure is run once more (a loaded machine is slow). */
function runSuite(file) {
	for (let attempt = 1; attempt <= 2; attempt++) {
		console.error(`  ${file} (attempt ${attempt})`);
		const result = spawnSync("npx", ["vitest", "run", path.join("test", "e2e", file)], {
			cwd: root,
			stdio: "inherit",
			env: { ...process.env, BOULDER_HARNESSES: cacheDir },
		});
		if (result.status === 0) return true;
	}
	return false;
}

function writeCompatibility() {
	const file = path.join(root, "docs", "compatibility.md");
	const lines = [
		"# Compatibility with each harness's newest release",
		"",
		"Written by `npm run test:latest` (scripts/test-latest.mjs): it installs each harness's newest release into a cache folder (not the lockfile), runs that harness's end-to-end suites against it (`BOULDER_HARNESSES`), and records here what passed. The pinned versions are the ones `npm test` runs (`test/harnesses/package.json`). `boulder doctor` warns when an installed harness is newer than the newest version in this table that passed.",
		"",
		"| harness | pinned | newest tried | date | suites | result |",
		"|---|---|---|---|---|---|",
	];
	const previous = existsSync(file) ? readFileSync(file, "utf8") : "";
	for (const name of Object.keys(tested)) {
		const harness = tested[name];
		if (!results[name]) {
			const row = new RegExp(`^\\|\\s*${harness.title}\\s*\\|`);
			const kept = previous.split("\n").find((line) => row.test(line));
			lines.push(kept ?? `| ${harness.title} | ${harness.pinned} | not run yet | | | |`);
			continue;
		}
		if (uninstallable[name]) {
			lines.push(
				`| ${harness.title} | ${harness.pinned} | ${newest[name]} | ${today} | 0/0 | FAIL: does not install (${uninstallable[name]}) |`,
			);
			continue;
		}
		const suites = results[name];
		const passed = suites.filter((suite) => suite.passed).length;
		const failedNames = suites.filter((suite) => !suite.passed).map((suite) => suite.file);
		const result = failedNames.length === 0 ? "pass" : `FAIL: ${failedNames.join(", ")}`;
		lines.push(
			`| ${harness.title} | ${harness.pinned} | ${newest[name]} | ${today} | ${passed}/${suites.length} | ${result} |`,
		);
	}
	lines.push("", "## Suites of each harness's last run", "");
	for (const name of Object.keys(tested)) {
		const title = tested[name].title;
		if (!results[name]) {
			// Not run this time (`--only`): its suites from the run before stay.
			const kept = previous.split("\n").find((line) => line.startsWith(`- ${title} `));
			if (kept) lines.push(kept);
			continue;
		}
		const suites = results[name].map((suite) => `\`${suite.file}\` ${suite.passed ? "pass" : "FAIL"}`);
		const what = uninstallable[name]
			? `does not install here, so no suite ran (${uninstallable[name]})`
			: suites.length > 0
				? suites.join(", ")
				: "no e2e suite is named for it";
		lines.push(`- ${title} ${newest[name]}: ${what}`);
	}
	writeFileSync(file, `${lines.join("\n")}\n`);
}

function writeReadme() {
	const file = path.join(root, "README.md");
	const text = readFileSync(file, "utf8");
	const start = "<!-- tested-with:start -->";
	const end = "<!-- tested-with:end -->";
	const from = text.indexOf(start);
	const to = text.indexOf(end);
	if (from < 0 || to < from) {
		console.error(`README.md has no ${start} … ${end} block: its "Tested with" table was not updated`);
		return;
	}
	const rows = ["| harness | pinned (`npm test`) | newest the lane passed |", "|---|---|---|"];
	for (const harness of Object.values(tested)) {
		const lane = harness.lanePassed ? `${harness.lanePassed.version} (${harness.lanePassed.date})` : "not run yet";
		rows.push(`| ${harness.title} | ${harness.pinned} | ${lane} |`);
	}
	writeFileSync(file, `${text.slice(0, from + start.length)}\n${rows.join("\n")}\n${text.slice(to)}`);
}

function fail(message) {
	console.error(`test:latest: ${message}`);
	process.exit(2);
}
