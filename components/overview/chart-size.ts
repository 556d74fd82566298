/** The charts' drawing height, shared by the chart, its placeholder and its skeleton: nothing shifts as they arrive. */
export const CHART_HEIGHT_PX = 240;
export const CHART_HEIGHT_CLASS = "h-60";
