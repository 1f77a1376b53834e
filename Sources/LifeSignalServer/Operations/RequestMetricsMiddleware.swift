import Hummingbird

/// Counts every request and times it, labelled by the matched route's template
/// (`context.endpointPath`); requests that matched no route are labelled `unmatched`.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await next(request, context)
            record(request, context: context, status: Int(response.status.code), duration: clock.now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(request, context: context, status: Int(status), duration: clock.now - start)
            throw error
        }
    }

    private func record(_ request: Request, context: Context, status: Int, duration: Duration) {
        // Hummingbird names a request that matched no route "NotFound"; templates start with "/".
        let route = context.endpointPath.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "unmatched"
        metrics.recordRequest(method: request.method.rawValue, route: route, status: status, duration: duration)
    }
}
