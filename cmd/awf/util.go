package main

import (
	"errors"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

type workflowT = workflow.Workflow

func asFault(err error, target **fault.Error) bool { return errors.As(err, target) }
