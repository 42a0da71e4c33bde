#pragma once

// What `parallax-cli render VIEW` accepts, view by view: the table behind `render --help`,
// `render VIEW --help` and the check that an option belongs to the view. Qt-free.
//
// Registering a view for render (after it has a ViewKind, a key and a createView case): add
// one entry to kRenderViews in render_options.cpp, e.g.
//     { "model", "an entry method's durations against a measure, with fits",
//         { { "entry", "ID", "the entry method to model" } } },
// Options are passed by name to the view's AnalysisView::applyOptions (which rejects a bad
// value), except those marked OptionUse::Render, which render_command.cpp handles itself.
// `render --help`, its VIEW list (read by packaging's completion) and the per-view help
// follow the table; nothing else needs an edit.

#include <string>
#include <vector>

namespace parallax::render {

// Who reads an option's value.
enum class OptionUse {
    View, // the view, through AnalysisView::applyOptions under the same name
    Render, // render_command.cpp (e.g. --with, --frames-dir)
};

struct RenderOption {
    const char* name; // without the dashes
    const char* value; // how the value is written in the help, e.g. "N" or "sum|set|key"
    const char* help; // one line or a few ('\n' between them)
    OptionUse use = OptionUse::View;
    // Given alone (--NAME) it means --NAME=on; --NAME=off and --NAME=on are taken too.
    bool flag = false;
};

struct RenderView {
    const char* key; // the view's key, as views::viewKey gives it
    const char* summary; // one line for `render VIEW --help`
    std::vector<RenderOption> options; // besides the common ones (size, range, PEs)
};

// Every view render draws, in the order of `render --help`.
const std::vector<RenderView>& renderViews();
// The view with this key, or null.
const RenderView* findRenderView(const std::string& key);
// The options every view takes (without the dashes).
std::vector<std::string> commonRenderOptions();

// `render --help`: the VIEW list and every view's options in short.
std::string renderHelp();
// `render VIEW --help`: the common options and this view's own.
std::string renderViewHelp(const RenderView& view);

// The message for an option that `view` does not take (and which views do), or "" when no
// view takes it (the parser's own "unknown option" stands then).
std::string optionElsewhere(const RenderView& view, const std::string& option);

} // namespace parallax::render
