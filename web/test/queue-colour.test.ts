/**
 * The queue dialog's proposed colour (issue 25): a new queue starts on a colour no queue of the company
 * has, so saving it as proposed is not refused with ERR_QUEUE_COLOR_ALREADY_EXISTS (the server compares
 * colours whatever their case). Before, every new queue proposed the palette's first colour.
 */
import { describe, expect, it } from 'vitest';
import { queueColorPalette, unusedQueueColor } from '../src/features/queues/api/queues.ts';

const used = (...colors: string[]) => colors.map((color) => ({ color }));

describe('unusedQueueColor', () => {
  it("proposes the palette's first colour to a company without queues", () => {
    expect(unusedQueueColor([])).toBe(queueColorPalette[0]);
  });

  it('skips the colours taken, whatever their case', () => {
    const [first, second, third] = queueColorPalette;
    expect(unusedQueueColor(used(first as string))).toBe(second);
    expect(unusedQueueColor(used((first as string).toLowerCase(), ` ${second} `))).toBe(third);
  });

  it('still proposes a free colour when every palette colour is taken', () => {
    const taken = used(...queueColorPalette, '#000001');
    const proposed = unusedQueueColor(taken);
    expect(proposed).toMatch(/^#[0-9a-f]{6}$/i);
    expect(taken.map((q) => q.color.toLowerCase())).not.toContain(proposed.toLowerCase());
  });
});
