import Hummingbird

extension Request {
    /// The request's path without its query, as a slice of the request line. Several
    /// middlewares look at the path of every request, and `uri.path` builds a new string each
    /// time it is read.
    var pathSlice: Substring {
        let target = head.path ?? "/"
        return target[..<(target.firstIndex(of: "?") ?? target.endIndex)]
    }
}
