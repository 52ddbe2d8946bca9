/**
 * Text bound for a spreadsheet cell from outside (a contact's name from an imported list, a
 * user's name): one that begins like a formula (=, +, -, @, a tab or a carriage return) gets a
 * leading apostrophe, so Excel or LibreOffice opening the export shows it instead of running it.
 */
export const spreadsheetText = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
