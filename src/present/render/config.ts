/** What `boulder config` prints: each effective value and where it came from. */
import type { Style } from "../style.js";

export interface ConfigRow {
	key: string;
	value: unknown;
	/** "default" or the file that set it. */
	source: string;
}

/** The config as dotted keys, in schema order; arrays are values, not folders. */
export function configRows(config: Record<string, unknown>, sources: Record<string, string>): ConfigRow[] {
	const rows: ConfigRow[] = [];
	const walk = (value: unknown, prefix: string) => {
		if (value !== null && typeof value === "object" && !Array.isArray(value)) {
			for (const [key, inner] of Object.entries(value)) walk(inner, prefix ? `${prefix}.${key}` : key);
			return;
		}
		rows.push({ key: prefix, value, source: sources[prefix] ?? "default" });
	};
	walk(config, "");
	return rows;
}

export function renderConfig(rows: readonly ConfigRow[], files: readonly string[], c: Style): string {
	const keyWidth = Math.max(...rows.map((row) => row.key.length)) + 2;
	const values = rows.map((row) => JSON.stringify(row.value));
	const valueWidth = Math.min(40, Math.max(...values.map((value) => value.length))) + 2;
	const lines = rows.map((row, index) => {
		const source = row.source === "default" ? c.dim("default") : c.cyan(row.source);
		return `${row.key.padEnd(keyWidth)}${(values[index] ?? "").padEnd(valueWidth)}${source}`;
	});
	lines.push("");
	lines.push(
		c.dim(
			files.length === 0
				? "No config files: every value is the default. The project file wins over the user file."
				: `From: ${files.join(", ")} (the project file wins over the user file).`,
		),
	);
	return lines.join("\n");
}
