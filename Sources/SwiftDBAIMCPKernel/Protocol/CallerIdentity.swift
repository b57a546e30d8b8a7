/// Who sent a request over HTTP, as the OAuth access token it carried says (verified before the
/// request reached MCP): the audit log names them, and their scopes narrow what they may do.
package struct CallerIdentity: Sendable, Hashable {
    /// `iss`: the authorization server that vouches for them.
    package let issuer: String
    /// `sub`: the user (or a client acting for itself).
    package let subject: String
    /// `client_id`: the application the user signed in with.
    package let clientID: String?
    /// The scopes the token grants.
    package let scopes: Set<String>
    /// A digest of the issuer and subject: the key of what belongs to this person (their
    /// `ask` conversations, their confirmations).
    package let personKey: String

    package init(issuer: String, subject: String, clientID: String?, scopes: Set<String>, personKey: String) {
        self.issuer = issuer
        self.subject = subject
        self.clientID = clientID
        self.scopes = scopes
        self.personKey = personKey
    }

    /// The same person through the same application: what an HTTP session is bound to (the
    /// scopes may change with a new token; another application the person signed in to, holding
    /// a leaked session id, may not use the session).
    package func isSameClient(as other: CallerIdentity) -> Bool {
        issuer == other.issuer && subject == other.subject && clientID == other.clientID
    }
}
