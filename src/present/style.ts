/**
 * How renderers mark up text: a few named styles, nothing else. The CLI
 * passes terminal colours (or none, for pipes and `--json`); in-harness
 * commands pass `plainStyle`. Renderers never know which.
 */
export interface Style {
	bold(text: string): string;
	dim(text: string): string;
	red(text: string): string;
	green(text: string): string;
	yellow(text: string): string;
	cyan(text: string): string;
}

const same = (text: string): string => text;

/** Every style returns its input: for machine output, harness toasts and tests. */
export const plainStyle: Style = { bold: same, dim: same, red: same, green: same, yellow: same, cyan: same };
