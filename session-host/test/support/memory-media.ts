import type { MediaStore } from '../../src/providers/simulator.ts';

/** The media bucket in memory (the simulator provider's S3 side is not what these tests are about). */
export const memoryMedia = (): MediaStore & { objects: Map<string, Buffer> } => {
  const objects = new Map<string, Buffer>();
  return {
    objects,
    async put(key, body) {
      objects.set(key, body);
    },
    async get(key) {
      const found = objects.get(key);
      if (!found) throw new Error(`no media ${key}`);
      return found;
    },
  };
};
