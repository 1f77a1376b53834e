import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension LocalAdapters {
    /// Content on the embedded backend. Reads need no session: signed out, or signed in as
    /// someone who is not an editor, they show published records only; writes act as the
    /// signed-in person, who must be an editor.
    public var contentClient: ContentClient {
        let content = backend.content
        @Sendable func viewer() async -> Caller { (try? await caller()) ?? .anonymous }
        return ContentClient(
            locations: { try await content.list(Location.self, filter: $0, viewer: await viewer()) },
            saveLocation: { try await content.save($0, caller: try await caller()) },
            deleteLocation: { try await content.delete(Location.self, id: $0, caller: try await caller()) },
            events: { try await content.list(Event.self, filter: $0.common, from: $0.from, to: $0.to, viewer: await viewer()) },
            saveEvent: { try await content.save($0, caller: try await caller()) },
            deleteEvent: { try await content.delete(Event.self, id: $0, caller: try await caller()) },
            routes: { try await content.list(Route.self, filter: $0, viewer: await viewer()) },
            saveRoute: { try await content.save($0, caller: try await caller()) },
            deleteRoute: { try await content.delete(Route.self, id: $0, caller: try await caller()) })
    }
}
