import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain

extension LocalAdapters {
    /// Content on the embedded backend. Reads need no session (anyone may read); writes act
    /// as the signed-in person.
    public var contentClient: ContentClient {
        let content = backend.content
        return ContentClient(
            locations: { try await content.list(Location.self, filter: $0) },
            saveLocation: { try await content.save($0, caller: try await caller()) },
            deleteLocation: { try await content.delete(Location.self, id: $0, caller: try await caller()) },
            events: { try await content.list(Event.self, filter: $0.common, from: $0.from, to: $0.to) },
            saveEvent: { try await content.save($0, caller: try await caller()) },
            deleteEvent: { try await content.delete(Event.self, id: $0, caller: try await caller()) },
            routes: { try await content.list(Route.self, filter: $0) },
            saveRoute: { try await content.save($0, caller: try await caller()) },
            deleteRoute: { try await content.delete(Route.self, id: $0, caller: try await caller()) })
    }
}
