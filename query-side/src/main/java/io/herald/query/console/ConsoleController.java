package io.herald.query.console;

import java.util.regex.Pattern;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Serves the console's page. Everything it shows comes from the JSON API, called by the page's
 * script with the operator's API key; the page itself holds no data, so it needs no key.
 */
@Controller
public class ConsoleController {

    /** How often the page asks for news. */
    static final int REFRESH_SECONDS = 4;

    private static final Pattern WORKSPACE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    @GetMapping("/console")
    public String console(@RequestParam(name = "ws", required = false) String workspace, Model model) {
        // a workspace that could not exist is dropped here rather than echoed into the page
        model.addAttribute("workspace", workspace != null && WORKSPACE.matcher(workspace).matches() ? workspace : "");
        model.addAttribute("refreshSeconds", REFRESH_SECONDS);
        return "console";
    }
}
