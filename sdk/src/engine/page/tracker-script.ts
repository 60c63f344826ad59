/** The isolated world the activity tracker (`in-page/tracker.ts`) lives in, one per document. */
export const activityWorld = "baton-activity";
