package io.herald.sandbox;

import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.method.support.HandlerMethodReturnValueHandlerComposite;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * A simulator's reply that is ready when its handler returns (no latency set, no fault holding it)
 * is written at once, like a plain {@link ResponseEntity}. Spring MVC would otherwise start async
 * processing for it and dispatch the request through the whole filter chain a second time: in a
 * profile of the benchmark's end-to-end phase (sandbox answering at once) that second dispatch took
 * about a twentieth of Herald's CPU samples. A reply still pending goes the asynchronous way, so
 * slow answers hold connections, not threads.
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class AnsweredReplies implements HandlerMethodReturnValueHandler, SmartInitializingSingleton {

    private final ObjectProvider<RequestMappingHandlerAdapter> adapter;
    /** Spring's own handlers, in their order: they write the answer, or take a pending reply. */
    private final HandlerMethodReturnValueHandlerComposite springs = new HandlerMethodReturnValueHandlerComposite();

    AnsweredReplies(ObjectProvider<RequestMappingHandlerAdapter> adapter) {
        this.adapter = adapter;
    }

    /**
     * Goes before Spring's own handlers, which would take every {@link DeferredResult} asynchronously
     * (where Spring MVC runs at all).
     */
    @Override
    public void afterSingletonsInstantiated() {
        adapter.ifAvailable(mvc -> {
            List<HandlerMethodReturnValueHandler> handlers = new ArrayList<>(mvc.getReturnValueHandlers());
            springs.addHandlers(handlers);
            handlers.add(0, this);
            mvc.setReturnValueHandlers(handlers);
        });
    }

    @Override
    public boolean supportsReturnType(MethodParameter returnType) {
        return DeferredResult.class.isAssignableFrom(returnType.getParameterType())
                && returnType.getContainingClass().getPackageName().equals(AnsweredReplies.class.getPackageName());
    }

    @Override
    public void handleReturnValue(Object returnValue, MethodParameter returnType, ModelAndViewContainer mav,
                                  NativeWebRequest request) throws Exception {
        if (returnValue instanceof DeferredResult<?> reply && reply.hasResult()
                && reply.getResult() instanceof ResponseEntity<?> answer) {
            springs.handleReturnValue(answer, new Answer(returnType), mav, request);
        } else {
            springs.handleReturnValue(returnValue, returnType, mav, request);
        }
    }

    /** The handler's return type as the answer inside the reply: {@code ResponseEntity<String>}. */
    private static final class Answer extends MethodParameter {

        private final ResolvableType type;

        Answer(MethodParameter reply) {
            super(reply);
            this.type = ResolvableType.forMethodParameter(reply).getGeneric();
        }

        private Answer(Answer original) {
            super(original);
            this.type = original.type;
        }

        @Override
        public Class<?> getParameterType() {
            return type.toClass();
        }

        @Override
        public java.lang.reflect.Type getGenericParameterType() {
            return type.getType();
        }

        @Override
        public Answer clone() {
            return new Answer(this);
        }
    }
}
