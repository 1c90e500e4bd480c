/** `1.2M`, `35k`, `980`: token counts as people read them (the page and the server both). */
export function formatCount(value: number): string {
	if (value >= 1_000_000) return `${trim(value / 1_000_000)}M`;
	if (value >= 1_000) return `${trim(value / 1_000)}k`;
	return String(value);
}

function trim(value: number): string {
	return value >= 100 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
}
