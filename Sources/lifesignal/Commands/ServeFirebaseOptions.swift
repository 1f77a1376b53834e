import ArgumentParser
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDomain

/// Whose Firebase ID tokens `serve` accepts as callers of `/rest/v1`, `/functions/v1`,
/// `/storage/v1` and Realtime (docs/security.md, "Firebase ID tokens"): a flag, else the
/// environment or config file.
///
/// | flag | variable | default |
/// |---|---|---|
/// | `--firebase-project-id` | `LIFESIGNAL_FIREBASE_PROJECT_ID` | none: no Firebase token is accepted |
/// | `--firebase-keys-url` | `LIFESIGNAL_FIREBASE_KEYS_URL` | Google's x509 certificates for `securetoken` |
struct ServeFirebaseOptions: ParsableArguments {
    @Option(help: "Accept this Firebase project's ID tokens as callers (default: $LIFESIGNAL_FIREBASE_PROJECT_ID, else none).")
    var firebaseProjectID: String?
    @Option(
        help:
            "Where the Firebase ID tokens' keys are published, as a JWKS or Google's x509 JSON (default: $LIFESIGNAL_FIREBASE_KEYS_URL, else Google's securetoken x509 URL)."
    )
    var firebaseKeysURL: String?

    static let projectVariable = "LIFESIGNAL_FIREBASE_PROJECT_ID"
    static let keysVariable = "LIFESIGNAL_FIREBASE_KEYS_URL"

    /// The settings, or `nil` when no project is named.
    func settings(_ values: ConfigurationValues) throws -> FirebaseAuthSettings? {
        guard let project = firebaseProjectID ?? values[Self.projectVariable], !project.isEmpty else { return nil }
        // A project id is lower-case letters, digits and hyphens; anything else cannot match a token's `aud`.
        guard project.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
            throw ValidationError("the Firebase project id \"\(project)\" is not one (lower-case letters, digits and hyphens)")
        }
        guard let text = firebaseKeysURL ?? values[Self.keysVariable] else { return FirebaseAuthSettings(projectID: project) }
        guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw ValidationError("the Firebase keys URL \"\(text)\" is not an http(s) URL")
        }
        return FirebaseAuthSettings(projectID: project, keysURL: url)
    }

    /// The banner's line.
    static func summary(_ settings: FirebaseAuthSettings?) -> String {
        guard let settings else { return "off (set --firebase-project-id to accept Firebase ID tokens)" }
        return "ID tokens of project \(settings.projectID), keys from \(settings.keysURL.absoluteString)"
    }
}
