/**
 * The slice of the Chrome DevTools Protocol the engine uses, typed by hand so the SDK carries
 * no protocol package. Only the fields read are declared.
 */

/** `DOM.Quad`: four corner points, clockwise from top-left, as 8 numbers. */
export type Quad = readonly number[];

/** An `Accessibility.AXValue`. */
export interface AXValue {
  type: string;
  value?: unknown;
}

/** An `Accessibility.AXNode`. */
export interface AXNode {
  nodeId: string;
  ignored: boolean;
  role?: AXValue;
  name?: AXValue;
  value?: AXValue;
  description?: AXValue;
  properties?: { name: string; value: AXValue }[];
  parentId?: string;
  childIds?: string[];
  backendDOMNodeId?: number;
  frameId?: string;
}

/** `Page.Frame`. */
export interface Frame {
  id: string;
  parentId?: string;
  loaderId: string;
  url: string;
  urlFragment?: string;
  securityOrigin?: string;
  name?: string;
}

/** `Page.FrameTree`. */
export interface FrameTree {
  frame: Frame;
  childFrames?: FrameTree[];
}

/** `Target.TargetInfo`. */
export interface TargetInfo {
  targetId: string;
  type: string;
  title: string;
  url: string;
  attached: boolean;
  openerId?: string;
  browserContextId?: string;
}

/** `DOMSnapshot.RareBooleanData` / `RareStringData`. */
export interface RareBooleanData {
  index: number[];
}
/** `DOMSnapshot.RareStringData`. */
export interface RareStringData {
  index: number[];
  value: number[];
}

/** `DOMSnapshot.DocumentSnapshot`, the fields the engine reads. */
export interface DocumentSnapshot {
  documentURL: number;
  title: number;
  frameId: number;
  scrollOffsetX?: number;
  scrollOffsetY?: number;
  contentWidth?: number;
  contentHeight?: number;
  nodes: {
    parentIndex?: number[];
    nodeType?: number[];
    nodeName?: number[];
    nodeValue?: number[];
    backendNodeId?: number[];
    attributes?: number[][];
    isClickable?: RareBooleanData;
    /** Radio and checkbox inputs that are checked. */
    inputChecked?: RareBooleanData;
    contentDocumentIndex?: { index: number[]; value: number[] };
    shadowRootType?: RareStringData;
    /** The value of `<input>` elements. */
    inputValue?: RareStringData;
    /** The value of `<textarea>` elements. */
    textValue?: RareStringData;
  };
  layout: {
    nodeIndex: number[];
    styles: number[][];
    bounds: number[][];
    text?: number[];
  };
}

/** `DOMSnapshot.captureSnapshot` result. */
export interface CaptureSnapshotResult {
  documents: DocumentSnapshot[];
  strings: string[];
}

/** `Page.getLayoutMetrics` result (CSS pixels). */
export interface LayoutMetrics {
  cssLayoutViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
  cssVisualViewport: {
    offsetX: number;
    offsetY: number;
    pageX: number;
    pageY: number;
    clientWidth: number;
    clientHeight: number;
    zoom?: number;
  };
  cssContentSize: { x: number; y: number; width: number; height: number };
}

/** `Runtime.RemoteObject`. */
export interface RemoteObject {
  type: string;
  subtype?: string;
  value?: unknown;
  objectId?: string;
  description?: string;
}

/** `Runtime.evaluate` / `Runtime.callFunctionOn` result. */
export interface EvaluateResult {
  result: RemoteObject;
  exceptionDetails?: { text: string; exception?: RemoteObject };
}
