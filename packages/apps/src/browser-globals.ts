/**
 * The few DOM pieces the app frame uses, typed here: the repository compiles as one program for
 * Node (no DOM lib), and the DOM lib in one file would leak browser globals into every package.
 * A real `HTMLElement` / `HTMLIFrameElement` fits each interface.
 */
export interface FrameWindow {
  postMessage(message: unknown, targetOrigin: string): void;
}

export interface FrameElement {
  setAttribute(name: string, value: string): void;
  src: string;
  title: string;
  readonly isConnected: boolean;
  readonly contentWindow: FrameWindow | null;
  readonly style: { cssText: string };
  remove(): void;
}

/** Where the app's iframe goes: any element (`appendChild` of the DOM). */
export interface AppContainer {
  appendChild(node: never): unknown;
}

interface BrowserGlobals {
  readonly document: { createElement(tag: "iframe"): FrameElement };
  readonly location: { readonly href: string; readonly origin: string };
}

/** The page's `document` and `location`. */
export function browserGlobals(): BrowserGlobals {
  return globalThis as unknown as BrowserGlobals;
}
