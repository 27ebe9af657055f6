"""Exports torchvision resnet18, mobilenet_v2 and mobilenet_v3_small, small
1-D and 3-D convolutional networks, transposed convolutions and a
torch.nn.TransformerEncoder
(random weights, fixed seed) to ONNX, with an input and PyTorch's output as .npy."""
import sys

import numpy as np
import torch
import torchvision

out = sys.argv[1]
which = sys.argv[2:] or ["resnet18", "mobilenet_v2", "mobilenet_v3_small", "conv1d",
                         "conv3d", "deconv", "transformer"]
torch.manual_seed(0)


class Conv1d(torch.nn.Module):
    """1-D convolutions and pools, as audio and sequence models use them."""

    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(
            torch.nn.Conv1d(4, 8, 5, stride=2, padding=2), torch.nn.BatchNorm1d(8),
            torch.nn.ReLU(), torch.nn.MaxPool1d(3, stride=2, padding=1),
            torch.nn.Conv1d(8, 8, 3, dilation=2, groups=2), torch.nn.AvgPool1d(2),
            torch.nn.ConvTranspose1d(8, 4, 4, stride=2, padding=1),
            torch.nn.AdaptiveAvgPool1d(1))

    def forward(self, x):
        return self.body(x)


class Conv3d(torch.nn.Module):
    """3-D convolutions and pools, as video and volumetric models use them:
    strides, padding, dilation and groups; max pooling with ceil mode and
    dilation, average pooling with and without the padding counted; a
    transposed convolution."""

    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(
            torch.nn.Conv3d(3, 8, (3, 5, 5), stride=(1, 2, 2), padding=(1, 2, 2)),
            torch.nn.BatchNorm3d(8), torch.nn.ReLU(),
            torch.nn.MaxPool3d(3, stride=2, padding=1, ceil_mode=True),
            torch.nn.Conv3d(8, 8, 3, padding=(2, 1, 1), dilation=(2, 1, 1), groups=2),
            torch.nn.AvgPool3d((3, 2, 2), stride=(2, 1, 1), padding=(1, 1, 0),
                               ceil_mode=True, count_include_pad=False),
            torch.nn.Conv3d(8, 4, (2, 1, 1), stride=(2, 1, 1), bias=False),
            torch.nn.AvgPool3d(2, stride=1, padding=1),
            torch.nn.MaxPool3d((2, 3, 3), stride=1, dilation=(2, 1, 1)),
            torch.nn.ConvTranspose3d(4, 4, (2, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1),
                                     output_padding=(0, 1, 0), groups=2))

    def forward(self, x):
        return self.body(x)


class Decoder2d(torch.nn.Module):
    """Transposed convolutions as segmentation and generative decoders use
    them: strides, padding, output padding, groups, dilation."""

    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(
            torch.nn.ConvTranspose2d(8, 6, 3, stride=2, padding=1, output_padding=1, groups=2),
            torch.nn.ReLU(),
            torch.nn.ConvTranspose2d(6, 3, (2, 3), stride=(2, 1), dilation=(1, 2), bias=False))

    def forward(self, x):
        return self.body(x)


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(
            d_model=64, nhead=4, dim_feedforward=128, dropout=0.1,
            activation="gelu", batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, num_layers=2)

    def forward(self, x):
        return self.encoder(x)


def randomize_batch_norms(model):
    """Random inference statistics, so that batch norms do real work and the
    outputs are of order 1 (torchvision's init leaves them near identity)."""
    for m in model.modules():
        if isinstance(m, (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d, torch.nn.BatchNorm3d)):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.2, 0.2)
    return model


def export(name, model, shape):
    model.eval()
    x = torch.randn(*shape)
    with torch.no_grad():
        y = model(x)
    torch.onnx.export(model, x, f"{out}/{name}.onnx", opset_version=13,
                      input_names=["input"], output_names=["output"])
    np.save(f"{out}/{name}_input.npy", x.numpy())
    np.save(f"{out}/{name}_expected.npy", y.numpy())


for name in which:
    if name == "resnet18":
        export(name, randomize_batch_norms(torchvision.models.resnet18(weights=None)),
               (1, 3, 224, 224))
    elif name == "mobilenet_v2":
        model = torchvision.models.mobilenet_v2(weights=None)
        torch.nn.init.normal_(model.classifier[1].weight, 0, 0.1)
        export(name, randomize_batch_norms(model), (1, 3, 224, 224))
    elif name == "mobilenet_v3_small":  # HardSwish, HardSigmoid (squeeze-excitation)
        model = torchvision.models.mobilenet_v3_small(weights=None)
        for layer in (model.classifier[0], model.classifier[3]):
            torch.nn.init.normal_(layer.weight, 0, 0.1)
        export(name, randomize_batch_norms(model), (1, 3, 224, 224))
    elif name == "deconv":
        export(name, Decoder2d(), (1, 8, 5, 7))
    elif name == "conv1d":
        export(name, randomize_batch_norms(Conv1d()), (2, 4, 64))
    elif name == "conv3d":
        export(name, randomize_batch_norms(Conv3d()), (2, 3, 16, 20, 18))
    elif name == "transformer":
        export(name, Encoder(), (1, 16, 64))
