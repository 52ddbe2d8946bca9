import { Box } from '@mui/material';

/**
 * Small inline marks for the four integration types (SPEC 2 "Queue integrations": the table's type
 * logo): drawn here rather than downloaded, in each product's colour, so the page works offline.
 */
const marks: Record<string, { color: string; path: string }> = {
  // A speech bubble with the agent's spark.
  dialogflow: {
    color: '#FF9800',
    path: 'M12 2 3 7v10l9 5 9-5V7l-9-5Zm0 5.2a4.8 4.8 0 1 1-2.9 8.6L6.5 17l.8-2.9A4.8 4.8 0 0 1 12 7.2Z',
  },
  // Three linked nodes of a workflow.
  n8n: {
    color: '#EA4B71',
    path: 'M4 9.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5Zm16-5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5Zm0 10a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5ZM6.4 11.3h3.3l3-4.6h4.9v1.6h-4l-2.5 3.8 2.5 3.8h4v1.6h-4.9l-3-4.6H6.4v-1.6Z',
  },
  // The webhook hook: a curve and its three ends.
  webhook: {
    color: '#5C6BC0',
    path: 'M10 3a4.5 4.5 0 0 1 3.9 6.7l2.6 4.4A4.5 4.5 0 1 1 14 21.3l.3-1.9a2.6 2.6 0 1 0 .6-4.1l-3.6-6.1.8-.5A2.6 2.6 0 1 0 8.5 8l-1.7-.9A4.5 4.5 0 0 1 10 3Zm-1.1 6.6 1.6.9-3.3 5.8A2.6 2.6 0 1 0 11 18.5h7.2v1.9h-5.5A4.5 4.5 0 1 1 5.6 15l3.3-5.4Z',
  },
  // A chat bubble with a typing cursor.
  typebot: {
    color: '#0042DA',
    path: 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Zm3 5v2h10V9H7Zm0 4v2h6v-2H7Z',
  },
};

export function IntegrationLogo({ type, size = 24 }: { type: string; size?: number }) {
  const mark = marks[type];
  if (!mark) return null;
  return (
    <Box
      component="svg"
      viewBox="0 0 24 24"
      role="img"
      aria-label={type}
      data-testid={`integration-logo-${type}`}
      sx={{ width: size, height: size, display: 'block', flexShrink: 0 }}
    >
      <title>{type}</title>
      <path fill={mark.color} d={mark.path} />
    </Box>
  );
}
