/**
 * Saves text as a file through a temporary link (the browser's download). A CSV starts with a BOM
 * so spreadsheet programs read the accents as UTF-8; JSON must not (parsers refuse a leading BOM).
 */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob(type.startsWith('text/csv') ? ['\uFEFF', text] : [text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
