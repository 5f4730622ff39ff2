package io.herald.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockServletContext;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.StandardServletAsyncWebRequest;
import org.springframework.web.context.request.async.WebAsyncUtils;
import org.springframework.web.context.support.GenericWebApplicationContext;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/** A reply ready at return is written at once; one still pending starts async processing. */
class AnsweredRepliesTest {

    private AnsweredReplies replies;
    private RequestMappingHandlerAdapter adapter;
    private MockHttpServletRequest request;
    private MockHttpServletResponse response;
    private ServletWebRequest web;

    @SuppressWarnings("unused") // its return type is what the handler is asked about
    DeferredResult<ResponseEntity<String>> reply() {
        return null;
    }

    @SuppressWarnings("unused")
    String notAReply() {
        return null;
    }

    @BeforeEach
    void setUp() {
        adapter = springAdapter();
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("requestMappingHandlerAdapter", adapter);
        replies = new AnsweredReplies(beans.getBeanProvider(RequestMappingHandlerAdapter.class));
        replies.afterSingletonsInstantiated();
        request = new MockHttpServletRequest("POST", "/sandbox/facebook/v21.0/1/feed");
        request.setAsyncSupported(true);
        response = new MockHttpServletResponse();
        web = new ServletWebRequest(request, response);
        WebAsyncUtils.getAsyncManager(web).setAsyncWebRequest(new StandardServletAsyncWebRequest(request, response));
    }

    /** Spring MVC's adapter with its own return value handlers, as an application context sets it up. */
    private static RequestMappingHandlerAdapter springAdapter() {
        GenericWebApplicationContext context = new GenericWebApplicationContext(new MockServletContext());
        context.refresh();
        RequestMappingHandlerAdapter springs = new RequestMappingHandlerAdapter();
        springs.setApplicationContext(context);
        springs.afterPropertiesSet();
        return springs;
    }

    private static MethodParameter returnOf(String method) throws NoSuchMethodException {
        return new MethodParameter(AnsweredRepliesTest.class.getDeclaredMethod(method), -1);
    }

    @Test
    void goesFirstAndTakesOnlyTheSandboxsReplies() throws Exception {
        assertThat(adapter.getReturnValueHandlers()).first().isSameAs(replies);
        assertThat(replies.supportsReturnType(returnOf("reply"))).isTrue();
        assertThat(replies.supportsReturnType(returnOf("notAReply"))).isFalse();
    }

    @Test
    void aReplyReadyAtReturnIsWrittenAtOnce() throws Exception {
        DeferredResult<ResponseEntity<String>> reply = new DeferredResult<>();
        reply.setResult(ResponseEntity.status(HttpStatus.CREATED).header("x-fb-trace-id", "t1").body("{\"id\":\"1_2\"}"));
        ModelAndViewContainer mav = new ModelAndViewContainer();

        replies.handleReturnValue(reply, returnOf("reply"), mav, web);

        assertThat(request.isAsyncStarted()).isFalse();
        assertThat(mav.isRequestHandled()).isTrue();
        assertThat(response.getStatus()).isEqualTo(201);
        assertThat(response.getHeader("x-fb-trace-id")).isEqualTo("t1");
        assertThat(response.getContentAsString()).isEqualTo("{\"id\":\"1_2\"}");
    }

    @Test
    void aPendingReplyIsAnsweredAsynchronously() throws Exception {
        DeferredResult<ResponseEntity<String>> reply = new DeferredResult<>();
        ModelAndViewContainer mav = new ModelAndViewContainer();

        replies.handleReturnValue(reply, returnOf("reply"), mav, web);

        assertThat(request.isAsyncStarted()).isTrue();
        assertThat(response.getContentAsString()).isEmpty();
    }

    @Test
    void keepsEverySpringHandler() {
        RequestMappingHandlerAdapter plain = springAdapter();
        List<Class<?>> expected = new ArrayList<>(List.of(AnsweredReplies.class));
        plain.getReturnValueHandlers().forEach(handler -> expected.add(handler.getClass()));
        assertThat(adapter.getReturnValueHandlers().stream().<Class<?>>map(Object::getClass).toList())
                .containsExactlyElementsOf(expected);
    }
}
