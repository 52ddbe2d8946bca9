import type { AnnouncementPriority } from '@conversa/functions/contracts/announcements';
import type { Theme } from '@mui/material';

/** SPEC 9: 1 red (high), 2 orange (medium), 3 grey (low). */
export function priorityColor(theme: Theme, priority: AnnouncementPriority): string {
  if (priority === 1) return theme.palette.error.main;
  if (priority === 2) return theme.palette.warning.main;
  return theme.palette.grey[600];
}

export const priorityKey = (priority: AnnouncementPriority) => `announcements.priorities.${priority}` as const;
