// The types the login flow and the provider both use, in a file of their own: neither module
// imports the other for them (the provider loads the flow lazily, login() builds a provider).

/** What a login adds to a provider: the listener's redirect URI, the state, how to show the URL. */
export interface LoginInteraction {
  redirectUrl: string;
  state: string;
  showAuthorizationUrl: (url: URL) => void | Promise<void>;
  /** The scopes this login asks for: a registered client limited to fewer registers again. */
  scope?: string;
}

export interface LoginResult {
  readonly resource: string;
  readonly authorizationServer?: string;
  readonly scope?: string;
  /** Epoch ms, when the authorization server said. */
  readonly expiresAt?: number;
}
