import type { PageName } from '../lib/site';

/** A small line drawing of each tool, for the home page's cards. */
const drawings: Partial<Record<PageName, string>> = {
  // A picture and its mirror image either side of a dashed axis.
  'flip-image': 'M24 6v36M18 12H8v24h10M30 12h10v24H30M11 31l4-6 3 4M37 31l-4-6-3 4',
  // A shape on a grid with its width and height marked.
  'area-calculator': 'M10 38V14l14-6 14 10v20zM6 42h36M6 42V10M42 42V38',
  // A speedometer: an arc and its needle.
  'speed-calculator': 'M8 34a16 16 0 1 1 32 0M24 34l9-11M12 34h3M33 34h3M24 18v3',
};

export function ToolIcon({ page }: { page: PageName }) {
  const d = drawings[page];
  if (!d) return null;
  return (
    <svg className="tool-icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path d={d} />
    </svg>
  );
}
