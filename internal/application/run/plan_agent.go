package run

import (
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

// agentPlan describes an agent step: its provider and model, its prompt as rendered, and the
// tools and intent rule of its MCP proxy.
func agentPlan(st *workflow.State, text func(key, t string) string) []string {
	a := st.Agent()
	head := "agent " + a.Provider
	if m, ok := a.Options["model"]; ok {
		head += fmt.Sprintf(" (model %v)", m)
	}
	lines := []string{head}
	if a.PromptFile != "" {
		lines = append(lines, "prompt file: "+text("prompt_file", a.PromptFile))
	} else {
		lines = append(lines, "prompt: "+text("prompt", a.Prompt))
	}
	p := a.MCPProxy
	if p == nil || !p.Enable {
		return append(lines, "tools: the CLI's own (no awf proxy)")
	}
	var tools []string
	if p.InterceptBuiltins {
		tools = append(tools, "awf built-ins (Read, Write, Edit, Bash, Glob, Grep)")
	}
	for _, pt := range p.PluginTools {
		exp := "all"
		if len(pt.Expose) > 0 {
			exp = strings.Join(pt.Expose, ", ")
		}
		tools = append(tools, "plugin "+pt.Plugin+": "+exp)
	}
	lines = append(lines, "tools through awf's proxy: "+strings.Join(tools, "; "))
	in := p.Intent
	allow := make([]string, 0, len(in.Allow))
	for _, v := range in.Allow {
		allow = append(allow, string(v))
	}
	return append(lines, fmt.Sprintf("intent: split %v, allowed variants %s, strict server validation %v, declaration required %v",
		in.Split, strings.Join(allow, "/"), in.StrictServerValidation, in.RequireDeclaration))
}
