// How many items a page of a profile's activity list holds: the server reads the first page of claims
// with the profile (so the list is in the HTML), the list reads the next ones (activity-lists.tsx).
export const ACTIVITY_PAGE = 10;
