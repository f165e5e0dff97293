// The history chart is ≈520 px wide: more points than this add bytes to the page, not detail.
// The server render sends at most this many (the HTML), and the chart draws at most this many.
export const CHART_POINTS = 120;
