import Tracing

/// The span of one language-model call, per the OpenTelemetry conventions for generative AI: a
/// `CLIENT` span named `chat {gen_ai.request.model}`, with `gen_ai.operation.name` (`chat`),
/// `gen_ai.provider.name` and `gen_ai.request.model` (from the model's name, `provider:model`),
/// the request's `gen_ai.request.temperature` and `gen_ai.request.max_tokens`, the response's
/// `gen_ai.response.finish_reasons` and `gen_ai.usage.input_tokens`/`output_tokens`, and
/// `error.type` when the call fails. Messages are not recorded.
///
/// Made only under a traced context (the MCP server's request span, or a caller's own): nothing
/// else is paid but a task-local read.
struct ModelCallSpan {
    let span: any Span

    /// Starts the span of `request` to `model` when the caller traces; nil otherwise.
    static func start(_ request: LanguageModelRequest, to model: any LanguageModel) -> ModelCallSpan? {
        guard let context = ServiceContext.current else { return nil }
        let (provider, modelName) = parts(of: model.name)
        let span = startSpan("chat \(modelName)", context: context, ofKind: .client)
        if span.isRecording {
            span.updateAttributes { attributes in
                attributes["gen_ai.operation.name"] = "chat"
                attributes["gen_ai.provider.name"] = provider
                attributes["gen_ai.request.model"] = modelName
                if let temperature = request.options.temperature { attributes["gen_ai.request.temperature"] = temperature }
                if let maxTokens = request.options.maxTokens { attributes["gen_ai.request.max_tokens"] = maxTokens }
            }
        }
        return ModelCallSpan(span: span)
    }

    /// The provider and the model of a model's name: `openai:gpt-4o` is `openai` and `gpt-4o`; a
    /// name without a provider is its own provider.
    static func parts(of name: String) -> (provider: String, model: String) {
        guard let colon = name.firstIndex(of: ":") else { return (name, name) }
        return (String(name[..<colon]), String(name[name.index(after: colon)...]))
    }

    /// Ends the span of a call that answered.
    func end(_ response: LanguageModelResponse) {
        span.updateAttributes { attributes in
            if let reason = response.finishReason { attributes["gen_ai.response.finish_reasons"] = [reason] }
            if let usage = response.usage {
                attributes["gen_ai.usage.input_tokens"] = usage.promptTokens
                attributes["gen_ai.usage.output_tokens"] = usage.completionTokens
                if let cached = usage.cachedPromptTokens { attributes["gen_ai.usage.cache_read.input_tokens"] = cached }
            }
        }
        span.end()
    }

    /// Ends the span of a call that failed.
    func end(_ error: LanguageModelError) {
        let type = error.traceType
        span.attributes["error.type"] = type
        span.setStatus(SpanStatus(code: .error, message: type))
        span.end()
    }
}

extension LanguageModelError {
    /// A low-cardinality name of the failure, for `error.type`: the HTTP status of a refused
    /// request, else the kind of failure.
    var traceType: String {
        switch self {
        case .unreachable: "unreachable"
        case .httpStatus(_, let status, _): String(status)
        case .rateLimited: "429"
        case .timeout: "timeout"
        case .unparseableResponse: "unparseable_response"
        case .refused: "refused"
        case .invalidConfiguration: "invalid_configuration"
        case .cancelled: "cancelled"
        }
    }
}
