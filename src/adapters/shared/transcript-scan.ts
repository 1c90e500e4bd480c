/**
 * The backwards transcript scanner is now the command-hook family's turn
 * reader (`command-hook/turn-reader.ts`); this module only keeps the old
 * name for code that still imports it. New code imports the turn reader.
 */
export * from "../command-hook/turn-reader.js";
